#pragma once
// Summaries with `nsys stats` semantics, computed in memory over the EventStores:
//   nvtx_sum    per (Range, Style) of NVTX push/pop and start/end ranges (marks excluded), as
//               nsys's nvtx_sum report groups them: Style is "PushPop" (NvtxPushPop tracks) or
//               "StartEnd" (NvtxStartEnd tracks); Range is "<domain>:<text>" when the range's
//               NVTX scope has a domain name, else the text (ranges without text: "").
//               roctx / mstx / Kineto annotation ranges of the other readers are summarised the
//               same way (their scopes carry the domain name those readers give them).
//   kernel_sum  per kernel (demangled) name; no style.
//   osrt_sum    per OS runtime function (nsys OSRT_API rows of eventClass 27: OsrtClass::Call;
//               the profiler's own start/finish marks are not calls).
//   cuda_api_sum  per CUDA runtime or driver API name, a "_vNNNN" version suffix dropped as nsys
//               drops it (CUDA backtrace duplicates, eventClass 67, are not read: spec 1.3).
//   gpu_mem_time_sum / gpu_mem_size_sum  per memory operation: "[CUDA memcpy <copy kind>]" for
//               the copy kinds nsys names (0..13; other kinds are left out, as nsys's join does)
//               and "[CUDA memset]"; by duration, or by bytes (the size report's "ns" fields
//               then hold bytes, and its Time (%) is 0: nsys prints none).
// Each row: count, total, average, median (mean of the two middle values for even counts),
// min, max and sample standard deviation (n-1; 0 for a single instance), all in ns, and the
// Time (%) of nsys: the row's total as a share of the sum of the totals of its group (one
// report for per-report rows, all reports together for overall rows). Rows are ordered by
// total time, descending, then by name, then by style.

#include "core/common/canceltoken.h"
#include "core/common/timewindow.h"
#include "core/trace/store/report.h"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

// The attr of OsRuntime events (tracetypes.h's table still says 0: every row of the readers
// but nsys's): a call (nsys eventClass 27) or one of the profiler's own marks (eventClass 31/32,
// "OS runtime libraries profiling started"), which osrt_sum does not count.
enum class OsrtClass : uint16_t { Call = 0, Mark = 1 };

enum class StatsKind { NvtxSum, KernelSum, OsrtSum, CudaApiSum, GpuMemTimeSum, GpuMemSizeSum };

// The report's name as the CLI takes it ("nvtx_sum", ..., "cuda_gpu_mem_size_sum"), and back.
std::string_view statsKindName(StatsKind kind);
std::optional<StatsKind> statsKindOf(std::string_view name);
// True for the size report, whose values are bytes, not ns.
constexpr bool isByteStats(StatsKind kind)
{
    return kind == StatsKind::GpuMemSizeSum;
}
// The name nsys's gpumem reports give a memcpy of ENUM_CUDA_MEMCPY_OPER `copyKind`; empty for a
// kind they do not name.
std::string_view memcpyOperationName(uint16_t copyKind);
// A CUDA API name as cuda_api_sum prints it: "cudaMalloc_v3020" -> "cudaMalloc".
std::string_view cudaApiBaseName(std::string_view name);

struct StatRow
{
    std::string name;             // nvtx_sum: the Range ("domain:text" or "text"); kernel_sum: the kernel
    std::string style;            // nvtx_sum: "PushPop" or "StartEnd"; kernel_sum: empty
    std::optional<size_t> report; // index into the input; nullopt = over all reports
    uint64_t count = 0;
    int64_t totalNs = 0;
    double avgNs = 0;
    double medNs = 0;
    int64_t minNs = 0;
    int64_t maxNs = 0;
    double stddevNs = 0;
    double timePct = 0; // 0..100, share of its group's total time; 0 when that total is 0
};

struct StatsResult
{
    std::vector<StatRow> overall;   // over all (selected) reports together
    std::vector<StatRow> perReport; // grouped by report (input order), each group by total
    bool cancelled = false;         // true when SummarizeOptions::cancel stopped it (rows empty)
    // Reports that could not answer (a digest without a sound statistics summary), each with the
    // reason naming it; the rows are of the others.
    std::vector<std::string> problems;
};

struct SummarizeOptions
{
    // Per input report: ns added to its own timestamps to put it on the shared axis (what
    // `trace align` computes); missing entries are 0.
    std::vector<int64_t> offsets;
    // Only events whose start, on the shared axis, lies in [start, end): an event starting at
    // `start` counts, one starting at `end` does not. Unset: every event.
    std::optional<core::TimeWindow> window;
    // Only these inputs (indices into the reports; out-of-range ones are ignored), per-report
    // rows in this order. Unset: all, in input order.
    std::optional<std::vector<size_t>> reports;
    // Also compute StatsResult::perReport (a view that only shows the overall rows skips it).
    bool perReport = true;
    // Name ranges as `nsys stats` of the release that exported each report does, where its
    // behaviour is known: 2024.6 prints a default-domain range as ":name". The CLI sets it, so its
    // tables read as nsys's; views leave it off, as the timeline's names have no colon.
    bool nsysReleaseNames = false;
    // Polled while summarising; once cancelled, summarize() returns an empty, cancelled result.
    const CancelToken *cancel = nullptr;
};

StatsResult summarize(std::span<const ReportPtr> reports, StatsKind kind, const SummarizeOptions &options);
// All reports, whole, own time axes.
StatsResult summarize(std::span<const ReportPtr> reports, StatsKind kind);
// The Total column of summarize()'s overall rows, per Range or kernel name (styles summed), without
// the per-row statistics: for callers that compare totals (trace compare). nullopt when cancelled.
// A report that cannot answer (a digest without a sound summary) adds its reason to `problems`.
std::optional<std::map<std::string, int64_t>> totalsByName(std::span<const ReportPtr> reports, StatsKind kind,
                                                           const CancelToken *cancel = nullptr,
                                                           std::vector<std::string> *problems = nullptr);

// kernel_sum's total time per name id of one store (-1: no kernel has that name), computed by
// the first caller with one pass over the kernels and then kept with the store
// (EventStore::derived), for run-against-run compares. Null when cancelled.
std::shared_ptr<const std::vector<int64_t>> kernelTimeByName(const EventStore &store,
                                                             const CancelToken *cancel = nullptr);

// compare: (name, style) x reports. For each row of the overall summary (ordered by overall
// total), one cell per report (count 0 where the report lacks it) and the report with the
// largest total — the straggler for that range or kernel.
struct CompareRow
{
    std::string name;
    std::string style;          // as StatRow::style
    std::vector<StatRow> cells; // one per report, in input order
    std::optional<size_t> slowest;
};
std::vector<CompareRow> compareReports(std::span<const ReportPtr> reports, StatsKind kind);

// The nvtx_sum Style of a range track kind: "PushPop", "StartEnd"; "" for other kinds.
std::string_view nvtxStyleName(TrackKind kind);
// The nvtx_sum Range of a range event with name `text` and NVTX scope index `attr` (the
// event's attr): "<domain>:<text>" when the scope has a domain name, else the text; "" when
// the text is empty (nsys groups those under a NULL name).
std::string nvtxRangeName(const EventStore &store, NameId text, uint16_t attr);

// Device work by class, as the reader classed it (Ascend: MindStudio Insight's task classes):
// compute kernels (what kernel_sum counts), communication and other device tasks, memory
// (memcpy + memset) and sync. `trace info` says with it what kernel_sum counted.
struct DeviceTaskCounts
{
    size_t compute = 0, communication = 0, memory = 0, sync = 0, other = 0;
};
DeviceTaskCounts countDeviceTasks(const EventStore &store);

} // namespace ps::core::trace
