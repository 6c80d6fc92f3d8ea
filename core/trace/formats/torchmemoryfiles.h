#pragma once
// Reading PyTorch's memory files into the memory model (core/trace/memory/torchmemory.h):
// export_memory_timeline outputs, what kind a file is and who wrote it, by its name. The snapshot
// reader is torchmemorysnapshot.h, included here for the callers that read either.

#include "core/trace/formats/torchmemorysnapshot.h" // readMemorySnapshot
#include "core/trace/memory/torchmemory.h"

#include <string>
#include <string_view>

namespace ps::core::trace {

// Who wrote the file, from its name: verl's `stepS/torch_memory_rankR_pidP.pickle`, the Ray
// Train tutorial's `rank{R}_…memory_profile.*`.
MemoryFileIdentity memoryFileIdentity(std::string_view path);

// Reads an export_memory_timeline output (.raw.json.gz, .json, .json.gz). An .html export is
// refused: it holds only a picture. Returns "" or "PATH: reason".
std::string readMemoryTimeline(const std::string &path, MemoryTimeline &out);

enum class MemoryFileKind { NotMemory, Snapshot, Timeline, TimelineHtml };
// By name: *.pickle / *.pkl (or either .gz), and *.json / *.json.gz / *.html whose name says memory
// (export_memory_timeline's outputs as users name them).
MemoryFileKind memoryFileKind(std::string_view path);

} // namespace ps::core::trace
