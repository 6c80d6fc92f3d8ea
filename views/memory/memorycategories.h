#pragma once
// The categories of PyTorch's memory timeline (export_memory_timeline) on the timeline: each
// category's colour, shared by the stacked total lane, its tooltip and the category lanes under
// it (each drawn in its band's colour, so they double as the legend).

#include "core/trace/memory/memoryseries.h"

#include <QRgb>
#include <QString>

#include <cstddef>
#include <optional>
#include <vector>

namespace ps::views {

// trace::kMemoryCategories order: parameters, optimizer state, inputs, temporaries, activations,
// gradients, autograd detail, unknown.
QRgb memoryCategoryColor(size_t category);

// One band of a stacked memory lane: a category lane of the same report.
struct MemoryStackPart
{
    size_t series = 0;   // index into the report's meta.memory
    size_t category = 0; // index into trace::kMemoryCategories
};
// The category lanes stacked in the memory-timeline total `total` (index into `memory`), bottom
// up in kMemoryCategories order; empty when that lane is not a memory timeline's total.
std::vector<MemoryStackPart> memoryStackOf(const std::vector<core::trace::MemorySeries> &memory, size_t total);
// The category a lane shows (a memory timeline's category lane), if it is one.
std::optional<size_t> memoryCategoryOf(const core::trace::MemorySeries &series);

// The bytes a lane holds at `timeNs` (its own clock): the sample in force, 0 before the first.
int64_t memoryBytesAt(const core::trace::MemorySeries &series, int64_t timeNs);

// "1.50 GiB"
QString memoryBytesText(int64_t bytes);

} // namespace ps::views
