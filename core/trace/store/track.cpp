#include "core/trace/store/track.h"

#include <algorithm>

namespace ps::core::trace {

int64_t Track::longDuration(size_t i) const
{
    const auto &ld = m_c.longDurations;
    auto it = std::lower_bound(ld.begin(), ld.end(), i, [](const LongDuration &l, size_t v) { return l.index < v; });
    // A missing entry can only come from a damaged cache; the 32-bit value is the best guess.
    return (it != ld.end() && it->index == i) ? it->duration : int64_t(kDurationOverflow);
}

std::optional<uint32_t> Track::crossThreadEndTid(size_t i) const
{
    const auto &ce = m_c.crossThreadEnds;
    auto it = std::lower_bound(ce.begin(), ce.end(), i, [](const CrossThreadEnd &c, size_t v) { return c.index < v; });
    if (it != ce.end() && it->index == i)
        return it->endTid;
    return std::nullopt;
}

IndexRange Track::window(int64_t t0, int64_t t1) const
{
    const auto &starts = m_c.start;
    // Everything in blocks whose running max end is <= t0 ended before the window.
    const auto &bm = m_c.blockMaxEnd;
    const size_t block =
        size_t(std::partition_point(bm.begin(), bm.end(), [t0](int64_t e) { return e <= t0; }) - bm.begin());
    size_t first = std::min(block * kBlock, starts.size());
    const size_t last = size_t(std::lower_bound(starts.begin(), starts.end(), t1) - starts.begin());
    // Skip the leading events of the first block that ended before t0.
    while (first < last && end(first) <= t0 && first < (block + 1) * kBlock)
        ++first;
    return {std::min(first, last), last};
}

} // namespace ps::core::trace
