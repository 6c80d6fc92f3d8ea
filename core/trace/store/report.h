#pragma once
// One loaded report: where it came from, what the file says about itself (ReportMeta), who it
// is in the training run (ReportIdentity), and its events (EventStore). Immutable once loaded;
// shared between threads and views through std::shared_ptr<const Report>.

#include "core/trace/memory/memorypeaks.h"
#include "core/trace/memory/memoryseries.h"
#include "core/trace/store/eventstore.h"
#include "core/trace/store/launchidentity.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::trace {

// TorchMemory: a CUDA memory snapshot or memory-timeline export opened as a report (its memory lanes).
enum class TraceFormat : uint8_t { NsysSqlite, Rocpd, AscendDb, KinetoJson, RlinfTracer, TorchMemory };
// "nsys-sqlite", "rocpd", "ascend-db", "kineto-json", "rlinf-tracer", "torch-memory" (the `format` of
// `trace info`).
std::string_view traceFormatName(TraceFormat f);

struct GpuInfo
{
    uint32_t id = 0; // device id as the report's GPU events use it
    std::string name;
    std::string busLocation;
    std::string uuid;
};

// Captured stdout/stderr of a profiled process (nsys ProcessStreams).
struct ProcessStreamInfo
{
    uint32_t pid = 0;
    std::string file;    // e.g. ".../streams/pid_158702_stderr.log"
    std::string content; // the captured text
};

// What the file itself says.
struct ReportMeta
{
    TraceFormat format = TraceFormat::NsysSqlite;
    std::string exporterVersion; // e.g. "2024.5.1.113"; empty when unknown
    std::string schemaVersion;   // e.g. "3.13.2"
    // UTC time (ns since the epoch) of the report's own time origin (nsys: session start);
    // absent when the file has none (pre-2022 nsys, rocpd).
    std::optional<int64_t> utcStartNs;
    std::string host; // host name when recorded
    std::vector<GpuInfo> gpus;
    std::vector<uint32_t> pids; // processes that have events, ascending
    // Events in the file per kind, one per row/trace event, before any filtering for drawing.
    // Usually equal to EventStore::count(); readers that drop rows say why in warnings.
    std::array<size_t, kTrackKindCount> fileCounts{};
    std::vector<std::string> warnings; // non-fatal oddities met while reading
    // The rank the file states about itself (Kineto distributedInfo.rank, Ascend
    // ascend_pytorch_profiler_<rank>.db / RANK_DEVICE_MAP); absent for nsys.
    std::optional<int> rank;
    // What the file recorded of each launched process's identity (its launcher's environment:
    // launchidentity.h), one entry per process; the report's identity comes from them when they
    // agree (identity.h, finishReport).
    std::vector<ProcessIdentity> processIdentities;
    std::vector<ProcessStreamInfo> processStreams;
    // Device memory over time, per device and source, in the events' clock (memoryseries.h).
    std::vector<MemorySeries> memory;
    // A CUDA memory snapshot's devices at their peaks (memorypeaks.h); empty for other reports.
    std::vector<MemoryDevicePeak> memoryPeaks;
};

// Who the report is in the run; every field optional. Derived from the path (identity.h) and
// from the data (pid).
struct ReportIdentity
{
    std::string run;   // the run's folder (grouping root); "" when the path gives none
    std::string group; // worker group or role: "ActorGroup", "worker_process", ...
    std::optional<int> rank;
    std::optional<int> step; // step or capture-range index (verl <RID>, nsys report<N>)
    // The step is the number nsys gave the capture range (Ray's worker_process_<PID>.<RID>): the
    // k-th profiled step, not training step k (phases.h numbers it from the config or the ranges).
    bool stepIsCaptureIndex = false;
    std::optional<uint32_t> pid;
    std::string scope;            // verl torch trace scope: "train", "e2e" or a stage ("actor-update")
    std::optional<int> worldSize; // verl torch trace "rank<r>-of-<W>"
    std::string parallel;         // verl torch trace "tp0-pp0-dp1-cp0" as written
    std::string part;             // verl torch trace file suffix "part1" / "mb0-3" as written
    std::string host;             // from the path (Ray node folder) or the data
    std::string label;            // short display name, e.g. "ActorGroup r3 pid 4242"
    // The identity the report recorded (ReportMeta::processIdentities agreed), which wins over
    // the one its name gives; each field says which variable it came from.
    LaunchIdentity recorded;
    // What the name said that the recording contradicts, e.g. "rank 5 (its name) vs 3 (RANK,
    // recorded)"; "" when they agree. trace info and the GUI's load problems say it.
    std::string nameDisagrees;
};

struct ReportOutline; // reportoutline.h

struct Report
{
    std::string path; // as given (absolute when found under a folder)
    uint64_t fileSize = 0;
    int64_t fileMtimeNs = 0;
    ReportMeta meta;
    ReportIdentity identity;
    // The report's events (and its processes, threads, names, tracks). Null for a digest opened
    // without its events: code that needs events asks the report source (reportsource.h:
    // eventsOf) and gets an error for such a report, never an empty store that reads as zeros.
    std::shared_ptr<const EventStore> store;
    bool fromCache = false;
    // Set for a digest opened without its events (reportoutline.h): the tracks' event counts,
    // pyramids and the summaries analyses use instead; `layoutOnly` then holds the report's
    // processes, threads, names and tracks, with no events.
    std::shared_ptr<const ReportOutline> outline;
    std::shared_ptr<const EventStore> layoutOnly;

    // Processes, threads, names and tracks (rows, labels, grouping): the events' store, or the
    // outline's layout. Not for events: an outline's tracks are empty.
    const EventStore &layout() const { return store ? *store : *layoutOnly; }
    const std::shared_ptr<const EventStore> &layoutPtr() const { return store ? store : layoutOnly; }
    bool hasLayout() const { return store || layoutOnly; }
};

using ReportPtr = std::shared_ptr<const Report>;

} // namespace ps::core::trace
