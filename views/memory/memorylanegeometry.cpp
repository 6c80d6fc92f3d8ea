#include "views/memory/memorylanegeometry.h"

#include <algorithm>
#include <cmath>

namespace ps::views {

std::vector<MemoryColumn> memoryColumns(const core::trace::MemorySeries &series, const TimeMapping &m, int64_t offset,
                                        int first, int last)
{
    std::vector<MemoryColumn> out;
    size_t i = size_t(std::max<std::ptrdiff_t>(0, series.indexAt(m.time(first) - offset)));
    for (int x = first; x < last; ++x) {
        const int64_t t1 = m.time(x + 1) - offset;
        size_t high = i;
        while (i + 1 < series.timeNs.size() && series.timeNs[i + 1] < t1)
            if (series.bytes[++i] > series.bytes[high])
                high = i;
        out.push_back({x, series.bytes[high], series.timeNs[high]});
    }
    return out;
}

int memoryBarHeight(int64_t bytes, int64_t peak, int full)
{
    return peak <= 0 ? 0 : int(std::lround(double(full) * double(std::max<int64_t>(0, bytes)) / double(peak)));
}

std::vector<std::vector<StackedBar>> stackedBars(const std::vector<core::trace::MemorySeries> &memory,
                                                 const std::vector<MemoryStackPart> &parts,
                                                 const std::vector<MemoryColumn> &columns, int64_t peak, int full)
{
    std::vector<std::vector<StackedBar>> bands;
    std::vector<int64_t> sum(columns.size(), 0);
    std::vector<int> top(columns.size(), 0);
    for (const MemoryStackPart &p : parts) {
        std::vector<StackedBar> &band = bands.emplace_back();
        for (size_t c = 0; c < columns.size(); ++c) {
            sum[c] += std::max<int64_t>(0, memoryBytesAt(memory[p.series], columns[c].timeNs));
            const int newTop = memoryBarHeight(sum[c], peak, full);
            band.push_back({columns[c].x, top[c], newTop});
            top[c] = newTop;
        }
    }
    return bands;
}

} // namespace ps::views
