#pragma once
// What a memory lane draws per pixel column, apart from how it is painted: the sample shown in
// each column (the highest in force during it) and, for a memory timeline's total, the category
// bands stacked in it. The timeline's painter turns these into rectangles.

#include "core/trace/memory/memoryseries.h"
#include "views/memory/memorycategories.h"
#include "views/scene/timemapping.h"

#include <cstdint>
#include <vector>

namespace ps::views {

struct MemoryColumn
{
    int x = 0;          // lane pixel column
    int64_t bytes = 0;  // the highest value in force during the column
    int64_t timeNs = 0; // that sample's time (the lane's own clock), for the categories under it
};
// Columns [first, last) of the lane of `series`, whose report is `offset` ns from the axis.
std::vector<MemoryColumn> memoryColumns(const core::trace::MemorySeries &series, const TimeMapping &m, int64_t offset,
                                        int first, int last);

// A bar `bytes` high in a lane `full` pixels high scaled to `peak`, in whole pixels.
int memoryBarHeight(int64_t bytes, int64_t peak, int full);

// One category's band in one column: from `below` to `top` pixels above the lane's bottom.
struct StackedBar
{
    int x = 0;
    int below = 0;
    int top = 0;
};
// Per part (bottom band first), per column: the bands of a stacked total, each band's top
// rounded from the running sum so that the stack ends where the total does.
std::vector<std::vector<StackedBar>> stackedBars(const std::vector<core::trace::MemorySeries> &memory,
                                                 const std::vector<MemoryStackPart> &parts,
                                                 const std::vector<MemoryColumn> &columns, int64_t peak, int full);

} // namespace ps::views
