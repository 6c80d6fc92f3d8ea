#pragma once
// One budget for the memory every concurrent load may inflate at once (#37): a reader checks
// each file's declared size against a bound proportional to that file (digest.cpp: 1024x its
// compressed size), and this budget keeps N loading threads from multiplying that allowance.
// A lease of more bytes than are free waits until other leases end; a lease larger than the
// whole budget waits until it is the only one. So at most max(budget, the largest single lease)
// bytes are being inflated at any time, whatever the thread count.
//
//   const MemoryBudget::Lease lease = MemoryBudget::inflation().lease(rawBytes);
//   ... allocate and inflate rawBytes ...
//   (the lease ends with its scope; what was inflated is then the report's)

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace ps::core {

class MemoryBudget
{
public:
    explicit MemoryBudget(uint64_t bytes) : m_budget(bytes) {}

    // The process-wide budget of bytes being inflated at once: 1 GiB, or
    // PROFSTUDIO_INFLATE_BUDGET_MB when set (read once, at first use).
    static MemoryBudget &inflation();

    class Lease
    {
    public:
        Lease(Lease &&other) noexcept : m_budget(other.m_budget), m_bytes(other.m_bytes) { other.m_budget = nullptr; }
        Lease(const Lease &) = delete;
        Lease &operator=(const Lease &) = delete;
        Lease &operator=(Lease &&) = delete;
        ~Lease();

    private:
        friend class MemoryBudget;
        Lease(MemoryBudget *budget, uint64_t bytes) : m_budget(budget), m_bytes(bytes) {}
        MemoryBudget *m_budget;
        uint64_t m_bytes;
    };

    // Waits until `bytes` fit (see above), then holds them until the lease ends (on the thread
    // that took it). A thread that already holds a lease is granted more at once: waiting for
    // bytes it holds itself would never end (a digest's sections inflate while its events do).
    Lease lease(uint64_t bytes);

    uint64_t budget() const { return m_budget; }
    // The most bytes leased at once so far (for tests and benchmarks).
    uint64_t peakLeased() const;

private:
    void release(uint64_t bytes);

    const uint64_t m_budget;
    mutable std::mutex m_mutex;
    std::condition_variable m_freed;
    uint64_t m_leased = 0;
    uint64_t m_peak = 0;
    unsigned m_holders = 0;
};

} // namespace ps::core
