#pragma once
// Runs body(i) for every i in [0, count) on `threads` threads (the caller's among them), each
// taking the next index as it finishes the last: for independent jobs of uneven size, such as
// one report each.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace ps::core {

template <typename Body> void parallelFor(size_t count, int threads, Body &&body)
{
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < count;)
            body(i);
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < std::min<long long>(threads, (long long)count); ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
        t.join();
}

} // namespace ps::core
