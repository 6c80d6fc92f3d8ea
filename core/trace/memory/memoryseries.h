#pragma once
// Device memory over time, as a report records it: a step function per device and source, in
// the report's own clock (the one its events use). Readers fill it from what the format keeps:
//   nsys    CUDA_GPU_MEMORY_USAGE_EVENTS: allocations minus frees of device-resident kinds
//           (device, array, static), so 0 is the capture's start, not an empty GPU;
//   Kineto  "[memory]" instant events of a device: PyTorch's caching allocator "Total Allocated";
//   Ascend  MEMORY_RECORD totalAllocated per allocator component (PTA, GE, PTA+GE) and NPU_MEM's
//           sampled HBM use (app, device);
//   rocpd   memory_allocations: ALLOC minus FREE per agent.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::trace {

struct MemorySeries
{
    uint32_t device = 0;
    std::string source;          // "CUDA device memory", "torch allocated (PTA)", "HBM (app)", ...
    std::vector<int64_t> timeNs; // ascending
    std::vector<int64_t> bytes;  // value from timeNs[i] until the next sample

    bool empty() const { return timeNs.empty(); }
    // Index of the first highest sample; 0 when empty.
    size_t peakIndex() const;
    int64_t peakBytes() const { return empty() ? 0 : bytes[peakIndex()]; }
    std::optional<int64_t> peakTimeNs() const
    {
        return empty() ? std::nullopt : std::optional<int64_t>(timeNs[peakIndex()]);
    }
    // Index of the sample in force at `t` (the last one at or before it), or -1 before the first.
    std::ptrdiff_t indexAt(int64_t t) const;
};

// Collects samples in any order and builds the series. Samples at one time keep the last value
// added, as the file's row order says which came last.
class MemorySeriesBuilder
{
public:
    MemorySeriesBuilder(uint32_t device, std::string source)
    {
        m_series.device = device;
        m_series.source = std::move(source);
    }
    void add(int64_t timeNs, int64_t bytes);
    // Adds `delta` to the running total (allocation > 0, free < 0); samples must come in time order.
    void addDelta(int64_t timeNs, int64_t delta);
    MemorySeries build() &&;

private:
    MemorySeries m_series;
    int64_t m_running = 0;
};

// The series of one report being read, one builder per (device, source), appended to a
// report's list in (device, source) order once reading is done: what every reader does.
class MemorySeriesSet
{
public:
    MemorySeriesBuilder &series(uint32_t device, const std::string &source);
    void appendTo(std::vector<MemorySeries> &out) &&;

private:
    std::map<std::pair<uint32_t, std::string>, MemorySeriesBuilder> m_builders;
};

// Shifts every series' times by -shift (a reader that moves its events to another clock).
void shiftMemorySeries(std::vector<MemorySeries> &series, int64_t shift);

} // namespace ps::core::trace
