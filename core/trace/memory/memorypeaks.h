#pragma once
// What a CUDA memory snapshot says about each device at its peak, kept with the report
// (ReportMeta::memoryPeaks) when the reader has the snapshot in hand, so that the digest's memory
// summary (analysis/memorysummary.h) is made from the loaded report (or its cache) instead of
// reading the file again: the peak and its time, the largest allocation sites live at it with
// their user frames (torch internals folded), and the OOMs. Counted as memory_viz counts
// (formats/torchmemoryhistory.h).
//
// One JSON shape serves the report cache and the digest's MEMS section:
//   [{"device", "peak_bytes", "peak_time_ns", "peak_reserved_bytes",
//     "live_at_peak": [{"bytes", "blocks", "folded_frames", "frames": [{"name", "file", "line"}]}],
//     "ooms": [{"time_ns", "bytes", "device_free"}]}]

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core {
class JsonWriter; // core/common/jsonwriter.h
}

namespace ps::core::trace {

// One frame of an allocation's stack, as the snapshot names it.
struct MemFrame
{
    std::string name;
    std::string file;
    int64_t line = 0;
};

struct MemoryOom
{
    std::optional<int64_t> timeNs; // absent when the file has no times
    int64_t bytes = 0;             // requested
    int64_t deviceFree = 0;        // what the device had free
};

// Live blocks at the peak that share their user frames.
struct MemoryPeakSite
{
    int64_t bytes = 0;
    int64_t blocks = 0;
    std::vector<MemFrame> frames; // user frames, innermost first (at most kMemoryPeakFrames)
    int foldedFrames = 0;         // torch-internal frames left out
};

struct MemoryDevicePeak
{
    int64_t device = 0;
    int64_t peakBytes = 0;
    // Absent when the peak is the start (no event raised it) or the file has no times.
    std::optional<int64_t> peakTimeNs;
    int64_t peakReservedBytes = 0;
    std::vector<MemoryPeakSite> liveAtPeak; // largest first, at most kMemoryPeakSites
    std::vector<MemoryOom> ooms;
};

inline constexpr size_t kMemoryPeakSites = 10;
inline constexpr size_t kMemoryPeakFrames = 8;

// {"time_ns", "bytes", "device_free"}: an OOM as `trace memory`, the cache and the digests write it.
void writeOomJson(JsonWriter &w, const MemoryOom &oom);
// The devices as one JSON array (the shape above).
void writeMemoryPeaksJson(JsonWriter &w, const std::vector<MemoryDevicePeak> &peaks);
std::string encodeMemoryPeaks(const std::vector<MemoryDevicePeak> &peaks);
// Reads the array back; false with `error` (the key that is missing or of the wrong type).
bool decodeMemoryPeaks(std::string_view json, std::vector<MemoryDevicePeak> &peaks, std::string &error);

} // namespace ps::core::trace
