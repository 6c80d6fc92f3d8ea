#include "core/common/memorybudget.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace ps::core {

namespace {

uint64_t inflationBudgetBytes()
{
    constexpr uint64_t kDefaultMiB = 1024;
    const char *set = std::getenv("PROFSTUDIO_INFLATE_BUDGET_MB");
    uint64_t mib = kDefaultMiB;
    if (set && *set) {
        char *end = nullptr;
        const unsigned long long v = std::strtoull(set, &end, 10);
        if (end && *end == '\0' && v > 0 && v < (uint64_t(1) << 40))
            mib = v;
    }
    return mib << 20;
}

// Leases the calling thread holds (of any budget).
thread_local unsigned t_held = 0;

} // namespace

MemoryBudget &MemoryBudget::inflation()
{
    static MemoryBudget budget(inflationBudgetBytes());
    return budget;
}

MemoryBudget::Lease MemoryBudget::lease(uint64_t bytes)
{
    std::unique_lock lock(m_mutex);
    // Over the whole budget: alone. Within it: once it fits beside the others.
    if (t_held == 0)
        m_freed.wait(lock, [&] { return bytes > m_budget ? m_holders == 0 : m_leased + bytes <= m_budget; });
    ++t_held;
    m_leased += bytes;
    ++m_holders;
    m_peak = std::max(m_peak, m_leased);
    return Lease(this, bytes);
}

uint64_t MemoryBudget::peakLeased() const
{
    std::lock_guard lock(m_mutex);
    return m_peak;
}

void MemoryBudget::release(uint64_t bytes)
{
    {
        std::lock_guard lock(m_mutex);
        m_leased -= bytes;
        --m_holders;
        --t_held;
    }
    m_freed.notify_all();
}

MemoryBudget::Lease::~Lease()
{
    if (m_budget)
        m_budget->release(m_bytes);
}

} // namespace ps::core
