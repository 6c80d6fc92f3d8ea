#pragma once
// What the analysis benchmarks share: the baseline they are measured against (one pass over
// every event reading start, duration and name, summed per name) and their argument and timing
// helpers.

#include "core/trace/eventstore.h"

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

namespace benchscan {

using Clock = std::chrono::steady_clock;

// The baseline: one pass over the events of the kinds `wanted` accepts.
template <typename Wanted>
int64_t scan(const ps::core::trace::EventStore &s, std::vector<int64_t> &perName, Wanted wanted)
{
    perName.assign(s.names().size(), 0);
    int64_t checksum = 0;
    for (const ps::core::trace::Track &t : s.tracks()) {
        if (!wanted(t.kind()))
            continue;
        for (size_t i = 0; i < t.size(); ++i) {
            perName[t.name(i)] += t.duration(i);
            checksum ^= t.start(i);
        }
    }
    return checksum + (perName.size() > 1 ? perName[1] : 0);
}

inline double seconds(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline size_t argValue(int argc, char **argv, const char *name, size_t fallback)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return size_t(std::stoull(argv[i + 1]));
    return fallback;
}

} // namespace benchscan
