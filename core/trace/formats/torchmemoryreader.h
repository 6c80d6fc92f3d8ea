#pragma once
// PyTorch's memory records opened as reports (kTorchMemoryFormat), so that they sit beside
// the same rank's traces: a CUDA memory snapshot (verl's `stepS/torch_memory_rankR_pidP.pickle`)
// or an export_memory_timeline output (the tutorial's `rank{R}_…memory_profile.*`).
//
// What the report holds:
//   meta.memory  per device, "torch allocated" (memory_viz's Active Memory Timeline) and
//                "torch reserved" (segments); a timeline file: "timeline total" and one series
//                per category it uses ("timeline ACTIVATION", ...), in _CATEGORY_TO_INDEX order;
//   events       per device a thread "torch memory device D" with marks where the recorded
//                history begins and ends, at the peak and at each OOM (requested bytes, device free);
//   identity     rank and pid from the name (meta.rank, meta.pids), the step from its folder;
//   memoryPeaks  a snapshot's devices at their peaks: live sites and OOMs (memorypeaks.h).
// Time: snapshots carry time_us on the wall clock (µs since the epoch), as do the profiler's
// timeline rows, so the report has a UTC origin (0) and aligns with the traces by UTC. A file
// without wall-clock times (older PyTorch writes no time_us) cannot be tied to the traces' clock:
// its events stand 1 µs apart in file order, it has no UTC origin (the session aligns by start)
// and a warning says so.

#include "core/trace/read/tracereader.h"

#include <string_view>

namespace ps::core::trace {

// The format of these reports ("torch-memory" in `trace info`).
inline constexpr TraceFormat kTorchMemoryFormat = TraceFormat::TorchMemory;

class TorchMemoryReader : public TraceReader
{
public:
    TraceFormat format() const override { return kTorchMemoryFormat; }
    // Snapshots by extension when given; in a folder only those whose name says memory or
    // snapshot (verl's torch_memory_*.pickle), as other pickles there are not profiles.
    // export_memory_timeline's outputs by a name that says memory.
    std::vector<NamePattern> namePatterns() const override;
    bool probe(std::string_view path, std::string_view head) const override;
    std::string read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                     const ReadContext &ctx) const override;
};

} // namespace ps::core::trace
