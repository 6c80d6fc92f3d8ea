#include "core/trace/memory/memoryseries.h"

#include <algorithm>
#include <numeric>

namespace ps::core::trace {

size_t MemorySeries::peakIndex() const
{
    if (bytes.empty())
        return 0;
    return size_t(std::max_element(bytes.begin(), bytes.end()) - bytes.begin());
}

std::ptrdiff_t MemorySeries::indexAt(int64_t t) const
{
    return std::upper_bound(timeNs.begin(), timeNs.end(), t) - timeNs.begin() - 1;
}

void MemorySeriesBuilder::add(int64_t timeNs, int64_t bytes)
{
    m_series.timeNs.push_back(timeNs);
    m_series.bytes.push_back(bytes);
}

void MemorySeriesBuilder::addDelta(int64_t timeNs, int64_t delta)
{
    m_running += delta;
    add(timeNs, m_running);
}

MemorySeries MemorySeriesBuilder::build() &&
{
    MemorySeries &s = m_series;
    std::vector<size_t> order(s.timeNs.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.timeNs[a] < s.timeNs[b]; });
    MemorySeries out;
    out.device = s.device;
    out.source = std::move(s.source);
    for (size_t i : order) {
        if (!out.timeNs.empty() && out.timeNs.back() == s.timeNs[i]) {
            out.bytes.back() = s.bytes[i]; // the later row wins
            continue;
        }
        out.timeNs.push_back(s.timeNs[i]);
        out.bytes.push_back(s.bytes[i]);
    }
    return out;
}

MemorySeriesBuilder &MemorySeriesSet::series(uint32_t device, const std::string &source)
{
    return m_builders.try_emplace({device, source}, device, source).first->second;
}

void MemorySeriesSet::appendTo(std::vector<MemorySeries> &out) &&
{
    for (auto &[key, builder] : m_builders)
        out.push_back(std::move(builder).build());
    m_builders.clear();
}

void shiftMemorySeries(std::vector<MemorySeries> &series, int64_t shift)
{
    for (MemorySeries &s : series)
        for (int64_t &t : s.timeNs)
            t = int64_t(uint64_t(t) - uint64_t(shift));
}

} // namespace ps::core::trace
