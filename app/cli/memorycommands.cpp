// profstudio-cli trace memory: per report (CUDA memory snapshot or memory-timeline export), what
// each device held at its peak and the OOMs, then which rank peaks highest.

#include "app/cli/commands.h"
#include "app/cli/traceload.h"
#include "core/analysis/memory/memorypeak.h"
#include "core/analysis/memory/memoryphase.h"
#include "core/common/jsonwriter.h"
#include "core/common/terminaltext.h"
#include "core/trace/formats/torchmemoryfiles.h"
#include "core/trace/formats/torchmemoryreader.h"
#include "core/trace/memory/torchmemoryhistory.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

namespace ps::cli {

namespace an = ps::core::analysis;
namespace tr = ps::core::trace;
namespace fs = std::filesystem;
using ps::core::JsonWriter;

namespace {

constexpr size_t kJsonFrames = 16;
constexpr size_t kTextFrames = 3;

// One file's analysis: a snapshot (devices) or a timeline (one series with categories).
struct MemoryReport
{
    std::string path;
    tr::MemoryFileIdentity identity;
    bool timeline = false;
    tr::MemorySnapshot snapshot;
    an::SnapshotMemory memory;
    an::TimelineMemory timelineMemory;
    bool wallClock = false; // its times tie to the traces' (µs or ns since the epoch)
    // Per device (a timeline: one), the phase at the peak in the same rank's traces.
    std::vector<std::optional<an::MemoryPhase>> phaseAtPeak;
    std::optional<int64_t> at; // --at: also what each device held then (the report's axis, ns)

    int64_t peakBytes() const
    {
        if (timeline)
            return timelineMemory.peakBytes;
        int64_t p = 0;
        for (const auto &d : memory.devices)
            p = std::max(p, d.peakBytes);
        return p;
    }
    // The phase at the highest device's peak (the first such device).
    std::optional<an::MemoryPhase> peakPhase() const
    {
        size_t best = 0;
        for (size_t i = 1; i < memory.devices.size(); ++i)
            if (memory.devices[i].peakBytes > memory.devices[best].peakBytes)
                best = i;
        return best < phaseAtPeak.size() ? phaseAtPeak[best] : std::nullopt;
    }
};

// Each device's phase at its peak, from the same rank's traces; only when the file's clock ties
// to theirs (the wall clock), as a peak placed by start alignment would name a phase by chance.
void findPhasesAtPeaks(MemoryReport &r, const std::vector<tr::ReportPtr> &traces)
{
    const std::vector<tr::ReportPtr> mine = an::sameRankTraces(r.identity.rank, r.identity.step, traces);
    const auto at = [&](std::optional<int64_t> t) -> std::optional<an::MemoryPhase> {
        if (!r.wallClock || !t || mine.empty())
            return std::nullopt;
        return an::phaseAtUtc(*t, mine, an::PhaseMapping::defaults());
    };
    if (r.timeline)
        r.phaseAtPeak.push_back(at(r.timelineMemory.peakTimeNs));
    for (const an::DeviceMemory &d : r.memory.devices)
        r.phaseAtPeak.push_back(at(d.peakTimeNs));
}

std::string phaseText(const an::MemoryPhase &p)
{
    std::string s = p.mapped ? "phase " + core::terminalSafe(p.phase) : "range '" + core::terminalSafe(p.range) + "'";
    if (p.step)
        s += " (step " + std::to_string(*p.step) + ")";
    if (p.mapped && p.range != p.phase)
        s += ", range '" + core::terminalSafe(p.range) + "'";
    return s + ", in " + fs::path(p.trace).filename().string();
}

void writePhaseJson(JsonWriter &w, const std::optional<an::MemoryPhase> &p)
{
    w.key("phase_at_peak");
    if (!p) {
        w.null();
        return;
    }
    w.beginObject().key("phase").value(p->phase).key("mapped").value(p->mapped).key("step").value(p->step);
    w.key("range").value(p->range).key("trace").value(p->trace).endObject();
}

// An identity field as JSON wants it (null when absent).
template <class T> std::optional<int64_t> jsonInt(const std::optional<T> &v)
{
    return v ? std::optional<int64_t>(int64_t(*v)) : std::nullopt;
}

std::string gib(int64_t bytes)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(int64_t(1) << 30));
    return buf;
}

// Trace files among the positionals: what a reader other than the memory one takes.
bool isTraceFile(const std::string &path)
{
    if (tr::memoryFileKind(path) != tr::MemoryFileKind::NotMemory)
        return false;
    const auto reader = tr::ReaderRegistry::instance().readerFor(path);
    return reader && reader->format() != tr::kTorchMemoryFormat;
}

// The files the positionals name: memory files as given, folders searched for memory files;
// the traces given or found beside them go to `traces` (the ranks' phases at their peaks).
std::vector<std::string> memoryPaths(const std::vector<std::string> &args, std::vector<std::string> &traces,
                                     std::ostream &err, int &status)
{
    std::vector<std::string> out;
    for (const std::string &p : args) {
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            (isTraceFile(p) ? traces : out).push_back(p);
            continue;
        }
        const std::vector<std::string> found = tr::filesUnder(
            p, [](const std::string &f) { return tr::memoryFileKind(f) != tr::MemoryFileKind::NotMemory; });
        if (found.empty()) {
            err << "error: " << p << ": no memory snapshot (*.pickle) or memory timeline found\n";
            status = 1;
        }
        out.insert(out.end(), found.begin(), found.end());
        for (const std::string &f : tr::findReports({p}, nullptr))
            if (tr::memoryFileKind(f) == tr::MemoryFileKind::NotMemory)
                traces.push_back(f);
    }
    return out;
}

std::string readReport(const std::string &path, MemoryReport &r)
{
    r.path = path;
    const tr::MemoryFileKind kind = tr::memoryFileKind(path);
    r.timeline = kind == tr::MemoryFileKind::Timeline || kind == tr::MemoryFileKind::TimelineHtml ||
                 (kind == tr::MemoryFileKind::NotMemory && (path.ends_with(".json") || path.ends_with(".gz")));
    if (r.timeline) {
        tr::MemoryTimeline t;
        if (std::string e = tr::readMemoryTimeline(path, t); !e.empty())
            return e;
        r.identity = t.identity;
        r.timelineMemory = an::analyzeTimeline(t);
        r.wallClock =
            !t.timeNs.empty() && *std::min_element(t.timeNs.begin(), t.timeNs.end()) >= tr::kMemoryEpochFloorNs;
        return {};
    }
    if (std::string e = tr::readMemorySnapshot(path, r.snapshot); !e.empty())
        return e;
    r.identity = r.snapshot.identity;
    r.memory = an::analyzeSnapshot(r.snapshot);
    r.wallClock = tr::memoryOnWallClock(r.snapshot);
    return {};
}

std::string frameText(const tr::MemFrame &f)
{
    return core::terminalSafe(f.name) + " (" + core::terminalSafe(f.file) + ":" + std::to_string(f.line) + ")";
}

// The allocation sites holding memory, largest first, `top` of them.
void writeSitesText(std::ostream &out, const MemoryReport &r, const std::vector<an::LiveGroup> &sites, size_t top)
{
    for (size_t i = 0; i < sites.size() && i < top; ++i) {
        const an::LiveGroup &g = sites[i];
        out << "    " << gib(g.bytes) << "  " << g.blocks << " block" << (g.blocks == 1 ? "" : "s") << "  ";
        for (size_t f = 0; f < g.frames.size() && f < kTextFrames; ++f)
            out << (f ? " < " : "") << frameText(r.snapshot.frames[g.frames[f]]);
        if (g.frames.empty())
            out << "(no user frames)";
        if (g.foldedFrames)
            out << "  [" << g.foldedFrames << " torch frames folded]";
        out << "\n";
    }
    if (sites.size() > top)
        out << "    ... " << sites.size() - top << " more allocation sites\n";
}

void writeSitesJson(JsonWriter &w, const MemoryReport &r, const std::vector<an::LiveGroup> &sites, size_t top)
{
    w.beginArray();
    for (size_t i = 0; i < sites.size() && i < top; ++i) {
        const an::LiveGroup &g = sites[i];
        w.beginObject().key("bytes").value(g.bytes).key("blocks").value(g.blocks).key("frames").beginArray();
        for (size_t f = 0; f < g.frames.size() && f < kJsonFrames; ++f) {
            const tr::MemFrame &fr = r.snapshot.frames[g.frames[f]];
            w.beginObject().key("name").value(fr.name).key("file").value(fr.file).key("line").value(fr.line);
            w.endObject();
        }
        w.endArray().key("folded_frames").value(g.foldedFrames).endObject();
    }
    w.endArray();
}

void writeDeviceText(std::ostream &out, const MemoryReport &r, size_t device, size_t top)
{
    const an::DeviceMemory &d = r.memory.devices[device];
    out << "  device " << d.device << ": peak " << gib(d.peakBytes) << " (" << d.peakBytes << " B)";
    if (d.peakTimeNs)
        out << " at " << *d.peakTimeNs << " ns";
    out << (d.peakEvent ? " (event " + std::to_string(*d.peakEvent) + ")" : std::string(" from the start"));
    out << ", reserved peak " << gib(d.peakReservedBytes) << ", before the history " << gib(d.baselineBytes) << "\n";
    if (device < r.phaseAtPeak.size() && r.phaseAtPeak[device])
        out << "    at the peak: " << phaseText(*r.phaseAtPeak[device]) << "\n";
    writeSitesText(out, r, d.liveAtPeak, top);
    if (r.at) {
        const an::MemoryAt at = an::memoryAt(r.snapshot, d.device, *r.at);
        out << "    at " << *r.at << " ns" << (at.event ? " (after event " + std::to_string(*at.event) + ")" : "")
            << ": " << gib(at.bytes) << " (" << at.bytes << " B) in " << at.blocks << " block"
            << (at.blocks == 1 ? "" : "s") << "\n";
        writeSitesText(out, r, at.sites, top);
    }
    for (const an::MemoryOom &o : d.ooms)
        out << "    OOM" << (o.timeNs ? " at " + std::to_string(*o.timeNs) + " ns" : std::string()) << ": requested "
            << gib(o.bytes) << " (" << o.bytes << " B), device free " << gib(o.deviceFree) << " (" << o.deviceFree
            << " B)\n";
}

void writeText(std::ostream &out, const MemoryReport &r, size_t top)
{
    out << r.path;
    if (r.identity.rank)
        out << "  rank " << *r.identity.rank;
    if (r.identity.step)
        out << "  step " << *r.identity.step;
    if (r.identity.pid)
        out << "  pid " << *r.identity.pid;
    out << (r.timeline ? "  (memory timeline)\n" : "  (memory snapshot)\n");
    if (r.timeline) {
        const an::TimelineMemory &t = r.timelineMemory;
        out << "  peak " << gib(t.peakBytes) << " (" << t.peakBytes << " B)"
            << (t.peakTimeNs ? " at " + std::to_string(*t.peakTimeNs) + " ns" : std::string()) << ":";
        for (size_t c = 0; c < t.categoriesAtPeak.size(); ++c)
            if (t.categoriesAtPeak[c])
                out << " " << tr::kMemoryCategories[c] << " " << gib(t.categoriesAtPeak[c]);
        out << "\n";
        if (!r.phaseAtPeak.empty() && r.phaseAtPeak[0])
            out << "  at the peak: " << phaseText(*r.phaseAtPeak[0]) << "\n";
        return;
    }
    if (r.memory.devices.empty())
        out << "  no device memory recorded\n";
    for (size_t i = 0; i < r.memory.devices.size(); ++i)
        writeDeviceText(out, r, i, top);
}

void writeDeviceJson(JsonWriter &w, const MemoryReport &r, size_t device, size_t top)
{
    const an::DeviceMemory &d = r.memory.devices[device];
    w.beginObject().key("device").value(d.device).key("peak_bytes").value(d.peakBytes);
    w.key("peak_time_ns").value(d.peakTimeNs);
    writePhaseJson(w, device < r.phaseAtPeak.size() ? r.phaseAtPeak[device] : std::nullopt);
    w.key("peak_event").value(d.peakEvent ? std::optional<int64_t>(int64_t(*d.peakEvent)) : std::nullopt);
    w.key("peak_reserved_bytes").value(d.peakReservedBytes);
    w.key("baseline_bytes").value(d.baselineBytes).key("live_at_peak");
    writeSitesJson(w, r, d.liveAtPeak, top);
    if (r.at) {
        const an::MemoryAt at = an::memoryAt(r.snapshot, d.device, *r.at);
        w.key("live_at").beginObject().key("time_ns").value(*r.at).key("event");
        w.value(at.event ? std::optional<int64_t>(int64_t(*at.event)) : std::nullopt);
        w.key("bytes").value(at.bytes).key("blocks").value(at.blocks).key("sites");
        writeSitesJson(w, r, at.sites, top);
        w.endObject();
    }
    w.key("ooms").beginArray();
    for (const an::MemoryOom &o : d.ooms)
        an::writeOomJson(w, o);
    w.endArray().endObject();
}

void writeJson(JsonWriter &w, const MemoryReport &r, size_t top)
{
    w.beginObject().key("path").value(r.path).key("kind").value(r.timeline ? "timeline" : "snapshot");
    w.key("rank").value(jsonInt(r.identity.rank)).key("step").value(jsonInt(r.identity.step));
    w.key("pid").value(jsonInt(r.identity.pid)).key("devices").beginArray();
    if (r.timeline) {
        const an::TimelineMemory &t = r.timelineMemory;
        w.beginObject().key("device").null().key("peak_bytes").value(t.peakBytes);
        w.key("peak_time_ns").value(t.peakTimeNs).key("live_at_peak").beginArray().endArray();
        writePhaseJson(w, r.phaseAtPeak.empty() ? std::nullopt : r.phaseAtPeak[0]);
        w.key("ooms").beginArray().endArray().key("categories_at_peak").beginObject();
        for (size_t c = 0; c < t.categoriesAtPeak.size(); ++c)
            w.key(tr::kMemoryCategories[c]).value(t.categoriesAtPeak[c]);
        w.endObject().endObject();
    }
    for (size_t i = 0; i < r.memory.devices.size(); ++i)
        writeDeviceJson(w, r, i, top);
    w.endArray().endObject();
}

struct ReportPeak
{
    tr::MemoryFileIdentity identity;
    std::string path;
    int64_t peakBytes = 0;
    bool timeline = false;
    std::optional<an::MemoryPhase> phase;
};

// Each rank's highest peak over its reports of one kind (snapshots and timelines count
// differently), then the rank that peaks highest and by how much over the median rank.
void writeCrossRank(std::ostream &out, JsonWriter &w, const std::vector<ReportPeak> &reports, bool timeline, bool text)
{
    std::vector<an::RankPeak> peaks;
    std::vector<const ReportPeak *> from;
    for (const ReportPeak &r : reports) {
        if (r.timeline != timeline)
            continue;
        auto same = std::find_if(peaks.begin(), peaks.end(), [&](const an::RankPeak &p) {
            return r.identity.rank ? p.rank == r.identity.rank : p.path == r.path;
        });
        if (same == peaks.end()) {
            peaks.push_back({r.identity.rank, r.path, r.peakBytes});
            from.push_back(&r);
        } else if (r.peakBytes > same->peakBytes) {
            *same = {r.identity.rank, r.path, r.peakBytes};
            from[size_t(same - peaks.begin())] = &r;
        }
    }
    const auto cross = an::crossRankPeak(peaks);
    if (!cross)
        return;
    const ReportPeak &p = *from[cross->highest];
    if (text) {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.2fx", cross->overMedianRatio);
        out << "cross-rank (" << (timeline ? "timelines" : "snapshots")
            << "): " << (p.identity.rank ? "rank " + std::to_string(*p.identity.rank) : p.path)
            << (p.identity.step ? " step " + std::to_string(*p.identity.step) : std::string()) << " peaks highest, "
            << gib(p.peakBytes) << ", " << gib(cross->overMedianBytes) << " (" << ratio << ") over the median "
            << gib(cross->medianBytes) << " of " << peaks.size() << " ranks"
            << (p.phase ? std::string(", at its peak in ") + (p.phase->mapped ? "phase " : "range ") + p.phase->phase
                        : std::string())
            << "\n";
        return;
    }
    w.beginObject().key("kind").value(timeline ? "timeline" : "snapshot").key("path").value(p.path);
    w.key("rank").value(jsonInt(p.identity.rank)).key("step").value(jsonInt(p.identity.step));
    w.key("peak_bytes").value(p.peakBytes).key("ranks").value(uint64_t(peaks.size()));
    w.key("median_bytes").value(cross->medianBytes).key("over_median_bytes").value(cross->overMedianBytes);
    w.key("over_median_ratio").value(cross->overMedianRatio);
    w.key("phase").value(p.phase ? std::optional<std::string>(p.phase->phase) : std::nullopt).endObject();
}

CommandSpec memorySpec()
{
    CommandSpec spec{
        "profstudio-cli trace memory [--format text|json] [--top N] [--at NS] FILE|DIR...",
        "What each rank held at its memory peak and why it ran out, from PyTorch CUDA memory snapshots "
        "(torch.cuda.memory._dump_snapshot; verl's stepS/torch_memory_rankR_pidP.pickle) and "
        "export_memory_timeline outputs (.raw.json.gz, .json, .json.gz). Per device: the peak of allocated "
        "bytes and its time (as memory_viz's Active Memory Timeline counts: blocks allocated before the "
        "recorded history count from the start), the blocks live at the peak grouped by allocation site "
        "(user frames first, torch internals folded), and OOMs with the requested size and the device's free "
        "bytes; for a timeline, the bytes per category at the peak. Then the rank that peaks highest and by "
        "how much over the median. With the same rank's traces given too (or found in the folders), the phase "
        "each peak falls in: the outermost verl/RLinf annotation range the phase mapping knows, else the "
        "outermost annotation range (only for files on the wall clock, which ties to the traces' clock). "
        "Pickles are decoded without running anything in them.",
        traceLoadOptions(),
        "FILE  a snapshot or timeline file, or a trace of the same run; DIR  a folder searched recursively for "
        "*.pickle / *.pkl and *memory*.json[.gz] / *memory*.html, and for traces",
        "JSON: {\"reports\": [{\"path\", \"kind\", \"rank\", \"step\", \"pid\", \"devices\": [{\"device\", "
        "\"peak_bytes\", \"peak_time_ns\", \"phase_at_peak\": {\"phase\", \"mapped\", \"step\", \"range\", "
        "\"trace\"} | null, \"peak_event\", \"peak_reserved_bytes\", \"baseline_bytes\", "
        "\"live_at_peak\": "
        "[{\"bytes\", \"blocks\", \"frames\": [{\"name\", \"file\", \"line\"}], \"folded_frames\"}], [\"live_at\": "
        "{\"time_ns\", \"event\", \"bytes\", \"blocks\", \"sites\": [as live_at_peak]} with --at], \"ooms\": "
        "[{\"time_ns\", \"bytes\", \"device_free\"}], [\"categories_at_peak\": {CATEGORY: bytes}]}]}], "
        "\"errors\": [{\"path\", \"error\"}], \"cross_rank\": [{\"kind\", \"path\", \"rank\", \"step\", "
        "\"peak_bytes\", \"ranks\", \"median_bytes\", \"over_median_bytes\", \"over_median_ratio\", \"phase\"}]} (one "
        "cross_rank entry per kind with two ranks or more)\n"
        "Exit status 1 when a file cannot be read (the others are still reported).\n"
        "Example: profstudio-cli trace memory --top 5 outputs/profile/step3/"};
    spec.options.push_back({"format", "text|json", "output format (default text)"});
    spec.options.push_back({"top", "N", "allocation sites listed per device (default 10)"});
    spec.options.push_back({"at", "NS",
                            "also what each device of a snapshot held at NS on its axis (the peak's time is given "
                            "in the same ns): the state after every entry at or before it, grouped by allocation "
                            "site, as the desktop's Memory tab lists a click there"});
    return spec;
}

} // namespace

int cmdTraceMemory(const Args &args, std::ostream &out, std::ostream &err)
{
    const CommandSpec spec = memorySpec();
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(spec, args, a, {"text", "json"}, format, out, err); s >= 0)
        return s;
    const auto top = parseInt(a.value("top", "10"));
    if (!top || *top < 0) {
        err << "error: --top expects a whole number >= 0, got '" << a.value("top") << "'\n";
        return 2;
    }
    std::optional<int64_t> at;
    if (a.has("at")) {
        const auto t = parseInt(a.value("at"));
        if (!t) {
            err << "error: --at expects a time in ns (a whole number), got '" << core::terminalSafe(a.value("at"))
                << "'\n";
            return 2;
        }
        at = *t;
    }
    if (a.positionals().empty()) {
        err << "error: no file or folder given (see --help)\n";
        return 2;
    }
    int status = 0;
    tr::LoadOptions loadOptions;
    if (!loadOptionsFromArgs(a, err, loadOptions, status))
        return status;
    std::vector<std::string> tracePaths;
    const std::vector<std::string> paths = memoryPaths(a.positionals(), tracePaths, err, status);
    if (paths.empty() && status == 0) {
        // Only traces were given: nothing to answer, and saying nothing would read as "no peak".
        for (const std::string &t : tracePaths)
            err << "error: " << t
                << ": not a memory snapshot or memory timeline (trace memory reads *.pickle / *.pkl snapshots, and "
                   "export_memory_timeline's .json / .json.gz / .raw.json.gz named with \"memory\"); traces given "
                   "beside memory files place their peaks in phases\n";
        return 1;
    }
    tr::LoadResult traces;
    // The traces only place the peaks in phases: one that cannot be read (a folder's stray .json)
    // is said, and the memory reports stand.
    if (!tracePaths.empty())
        traces = tr::loadReports(tracePaths, loadOptions);
    for (const tr::LoadFailure &f : traces.failures)
        err << "warning: " << f.reason << " (no phases from it)\n";
    JsonWriter w;
    w.beginObject().key("reports").beginArray();
    std::vector<ReportPeak> reports;
    std::vector<std::pair<std::string, std::string>> errors;
    for (const std::string &path : paths) {
        MemoryReport r;
        r.at = at;
        if (std::string e = readReport(path, r); !e.empty()) {
            err << "error: " << e << "\n";
            errors.emplace_back(path, e);
            status = 1;
            continue;
        }
        findPhasesAtPeaks(r, traces.reports);
        reports.push_back({r.identity, r.path, r.peakBytes(), r.timeline, r.peakPhase()});
        if (format == "json")
            writeJson(w, r, size_t(*top));
        else
            writeText(out, r, size_t(*top));
    }
    w.endArray().key("errors").beginArray();
    for (const auto &[path, e] : errors)
        w.beginObject().key("path").value(path).key("error").value(e).endObject();
    w.endArray().key("cross_rank").beginArray();
    for (const bool timeline : {false, true})
        writeCrossRank(out, w, reports, timeline, format == "text");
    w.endArray();
    w.endObject();
    if (format == "json")
        out << w.str() << "\n";
    return status;
}

} // namespace ps::cli
