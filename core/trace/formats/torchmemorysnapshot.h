#pragma once
// Reading a CUDA memory snapshot (torch.cuda.memory._dump_snapshot's pickle) into the memory model
// (core/trace/memory/torchmemory.h), through ProfStudio's own pickle decoder (pickledecoder.h),
// which runs nothing the file asks for.

#include "core/trace/memory/torchmemory.h"

#include <string>
#include <string_view>

namespace ps::core::trace {

// Reads a snapshot pickle, or one gzip-compressed (.pickle.gz, .pkl.gz; inflated within the
// process's inflation budget and at most 128x its size on disk). Returns "" or "PATH: reason"
// (with the byte offset or the key path). Sizes must lie in [0, 2^56) and times within ±9e15 µs, so that sums and ns
// never overflow.
std::string readMemorySnapshot(const std::string &path, MemorySnapshot &out);
// The same from bytes in memory, `name` standing for the file in errors.
std::string readMemorySnapshotBytes(std::string_view bytes, const std::string &name, MemorySnapshot &out);

} // namespace ps::core::trace
