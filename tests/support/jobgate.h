#pragma once
// A gate a background job waits at until the test opens it, so that jobs overlap for certain.

#include <atomic>
#include <chrono>
#include <thread>

namespace ps::test {

struct JobGate
{
    std::atomic<bool> open{false};
    void wait() const
    {
        while (!open.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
};

} // namespace ps::test
