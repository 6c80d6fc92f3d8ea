#include "views/memory/memorycategories.h"

#include "core/trace/memory/torchmemory.h"
#include "core/trace/persist/tracecache.h" // formatByteSize

#include <algorithm>
#include <array>

namespace ps::views {

namespace tr = ps::core::trace;

QRgb memoryCategoryColor(size_t category)
{
    static constexpr std::array<QRgb, tr::kMemoryCategories.size()> kColors = {
        0xff42a5f5, // parameters: blue
        0xffab47bc, // optimizer state: purple
        0xff26a69a, // inputs: teal
        0xffffd54f, // temporaries: yellow
        0xffff8a65, // activations: orange
        0xff66bb6a, // gradients: green
        0xff8d6e63, // autograd detail: brown
        0xffbdbdbd, // unknown: grey
    };
    return kColors[std::min(category, kColors.size() - 1)];
}

std::vector<MemoryStackPart> memoryStackOf(const std::vector<tr::MemorySeries> &memory, size_t total)
{
    std::vector<MemoryStackPart> parts;
    if (total >= memory.size() || memory[total].source != tr::kTimelineTotalSource)
        return parts;
    for (size_t i = 0; i < memory.size(); ++i)
        if (const auto category = memoryCategoryOf(memory[i]); category && memory[i].device == memory[total].device)
            parts.push_back({i, *category});
    std::stable_sort(parts.begin(), parts.end(),
                     [](const MemoryStackPart &a, const MemoryStackPart &b) { return a.category < b.category; });
    return parts;
}

std::optional<size_t> memoryCategoryOf(const tr::MemorySeries &series)
{
    return tr::timelineCategoryOfSource(series.source);
}

int64_t memoryBytesAt(const tr::MemorySeries &series, int64_t timeNs)
{
    const std::ptrdiff_t i = series.indexAt(timeNs);
    return i < 0 ? 0 : series.bytes[size_t(i)];
}

QString memoryBytesText(int64_t bytes)
{
    return QString::fromStdString(tr::formatByteSize(uint64_t(std::max<int64_t>(0, bytes))));
}

} // namespace ps::views
