#pragma once
// trace compare's peak memory per matched rank (core/analysis/memorycompare.h), as text and JSON.

#include "core/analysis/memorycompare.h"
#include "core/common/jsonwriter.h"

#include <ostream>
#include <vector>

namespace ps::cli {

// "Peak memory per matched rank:" and a line per (key, device, source); nothing when empty.
void writeMemoryPeaksText(std::ostream &out, const std::vector<core::analysis::MemoryPeakDelta> &peaks);
// "memory_peaks": [{"key", "device", "source", "baseline_bytes", "candidate_bytes", "delta_pct"}].
void writeMemoryPeaksJson(core::JsonWriter &w, const std::vector<core::analysis::MemoryPeakDelta> &peaks);

} // namespace ps::cli
