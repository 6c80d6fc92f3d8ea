// profstudio-cli trace info | align (../shared/spec/cli.md, "Trace commands"); trace stats is in
// tracestats.cpp, trace cache in cachecommands.cpp.

#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/traceload.h"
#include "core/analysis/phases/phaseanchor.h"
#include "core/common/jsonwriter.h"
#include "core/trace/alignment.h"
#include "core/trace/tracestats.h"

#include <iomanip>

namespace ps::cli {

namespace tr = ps::core::trace;
using ps::core::JsonWriter;

namespace {

struct CountKey
{
    const char *key;
    std::vector<tr::TrackKind> kinds;
};
const std::vector<CountKey> &countKeys()
{
    using K = tr::TrackKind;
    static const std::vector<CountKey> keys = {
        {"kernel", {K::Kernel}},
        {"memcpy", {K::Memcpy}},
        {"memset", {K::Memset}},
        {"sync", {K::Sync}},
        {"api", {K::CudaApi}},
        {"osrt", {K::OsRuntime}},
        {"range", {K::NvtxPushPop, K::NvtxStartEnd}},
        {"mark", {K::NvtxMark}},
    };
    return keys;
}

size_t eventCount(const tr::Report &rep, const CountKey &k)
{
    size_t n = 0;
    for (auto kind : k.kinds)
        n += rep.meta.fileCounts[size_t(kind)];
    return n;
}

// Each recorded field of an identity as {"value", "from"} under its key; absent fields are left out.
void writeRecordedJson(JsonWriter &w, const tr::LaunchIdentity &id)
{
    const auto number = [&](const char *key, const std::optional<tr::Recorded<int>> &f) {
        if (f)
            w.key(key).beginObject().key("value").value(int64_t(f->value)).key("from").value(f->from).endObject();
    };
    w.beginObject();
    number("rank", id.rank);
    number("world_size", id.worldSize);
    number("local_rank", id.localRank);
    number("node_rank", id.nodeRank);
    if (id.group)
        w.key("group").beginObject().key("value").value(id.group->value).key("from").value(id.group->from).endObject();
    w.endObject();
}

void writeIdentityJson(JsonWriter &w, const tr::Report &rep)
{
    w.key("recorded");
    writeRecordedJson(w, rep.identity.recorded);
    w.key("name_disagrees").value(rep.identity.nameDisagrees);
    w.key("processes").beginArray();
    for (const tr::ProcessIdentity &p : rep.meta.processIdentities) {
        w.beginObject().key("pid").value(p.pid ? std::optional<int64_t>(p.pid) : std::nullopt);
        w.key("where").value(p.where).key("identity");
        writeRecordedJson(w, p.launch);
        w.endObject();
    }
    w.endArray();
}

// "rank 3 (RANK, recorded), world size 4 (WORLD_SIZE, recorded)"; a field the name alone gave
// says "(its name)".
std::string identitySources(const tr::ReportIdentity &id, const tr::LaunchIdentity &recorded)
{
    std::string out;
    const auto add = [&](const char *what, const std::string &text) {
        if (!text.empty())
            out += (out.empty() ? "" : ", ") + std::string(what) + " " + text;
    };
    add("rank", recorded.rank ? tr::recordedText(recorded.rank)
                : id.rank     ? std::to_string(*id.rank) + " (its name)"
                              : "");
    add("world size", recorded.worldSize ? tr::recordedText(recorded.worldSize)
                      : id.worldSize     ? std::to_string(*id.worldSize) + " (its name)"
                                         : "");
    add("local rank", tr::recordedText(recorded.localRank));
    add("node rank", tr::recordedText(recorded.nodeRank));
    add("group", tr::recordedText(recorded.group));
    return out;
}

void printIdentity(std::ostream &out, const tr::Report &rep)
{
    if (const std::string sources = identitySources(rep.identity, rep.identity.recorded); !sources.empty())
        out << "  " << sources << "\n";
    if (!rep.identity.nameDisagrees.empty())
        out << "  warning: the name disagrees with the recorded identity (" << rep.identity.nameDisagrees
            << "): the recorded one is used\n";
    if (rep.meta.processIdentities.size() < 2)
        return;
    for (const tr::ProcessIdentity &p : rep.meta.processIdentities)
        out << "  process " << (p.pid ? "pid " + std::to_string(p.pid) + " " : std::string()) << "(" << p.where
            << "): " << identitySources({}, p.launch) << "\n";
}

void writeInfoJson(std::ostream &out, const std::vector<tr::ReportPtr> &reports)
{
    JsonWriter w;
    w.beginObject().key("reports").beginArray();
    for (const auto &rep : reports) {
        const auto &id = rep->identity;
        w.beginObject();
        w.key("path").value(rep->path);
        w.key("format").value(tr::traceFormatName(rep->meta.format));
        w.key("version").value(rep->meta.exporterVersion);
        w.key("host").value(id.host);
        w.key("pid").value(id.pid ? std::optional<int64_t>(*id.pid) : std::nullopt);
        w.key("group").value(id.group);
        w.key("rank").value(id.rank ? std::optional<int64_t>(*id.rank) : std::nullopt);
        w.key("step").value(id.step ? std::optional<int64_t>(*id.step) : std::nullopt);
        w.key("scope").value(id.scope);
        w.key("world_size").value(id.worldSize ? std::optional<int64_t>(*id.worldSize) : std::nullopt);
        w.key("parallel").value(id.parallel);
        writeIdentityJson(w, *rep);
        w.key("utc_start_ns").value(rep->meta.utcStartNs);
        w.key("duration_ns").value(int64_t(rep->store->lastEnd() - rep->store->firstStart()));
        w.key("counts").beginObject();
        for (const auto &k : countKeys())
            w.key(k.key).value(uint64_t(eventCount(*rep, k)));
        w.endObject();
        const tr::DeviceTaskCounts t = tr::countDeviceTasks(*rep->store);
        w.key("device_tasks").beginObject();
        w.key("compute").value(uint64_t(t.compute)).key("communication").value(uint64_t(t.communication));
        w.key("memory").value(uint64_t(t.memory)).key("sync").value(uint64_t(t.sync));
        w.key("other").value(uint64_t(t.other));
        w.endObject();
        w.key("memory").beginArray();
        for (const tr::MemorySeries &m : rep->meta.memory) {
            w.beginObject().key("device").value(uint64_t(m.device)).key("source").value(m.source);
            w.key("samples").value(uint64_t(m.timeNs.size()));
            w.key("peak_bytes").value(m.peakBytes());
            w.key("peak_ns").value(m.peakTimeNs());
            w.endObject();
        }
        w.endArray();
        w.key("warnings").beginArray();
        for (const auto &wn : rep->meta.warnings)
            w.value(wn);
        w.endArray();
        w.endObject();
    }
    w.endArray().endObject();
    out << w.str() << "\n";
}

void printInfo(std::ostream &out, const std::vector<tr::ReportPtr> &reports)
{
    for (const auto &rep : reports) {
        const auto &id = rep->identity;
        out << rep->path << "\n";
        out << "  format " << tr::traceFormatName(rep->meta.format);
        if (!rep->meta.exporterVersion.empty())
            out << " " << rep->meta.exporterVersion;
        if (!rep->meta.schemaVersion.empty())
            out << " (schema " << rep->meta.schemaVersion << ")";
        out << "\n  identity " << (id.label.empty() ? "-" : id.label);
        if (!id.host.empty())
            out << " on " << id.host;
        out << "\n";
        printIdentity(out, *rep);
        out << "  utc start "
            << (rep->meta.utcStartNs ? std::to_string(*rep->meta.utcStartNs) + " ns" : std::string("none"))
            << ", duration " << (rep->store->lastEnd() - rep->store->firstStart()) << " ns\n  counts";
        for (const auto &k : countKeys())
            out << " " << k.key << "=" << eventCount(*rep, k);
        out << "\n";
        const tr::DeviceTaskCounts t = tr::countDeviceTasks(*rep->store);
        if (rep->meta.format == tr::TraceFormat::AscendDb || t.communication + t.other > 0)
            out << "  device tasks compute=" << t.compute << " (kernel_sum) communication=" << t.communication
                << " memory=" << t.memory << " sync=" << t.sync << " other=" << t.other << "\n";
        for (const tr::MemorySeries &m : rep->meta.memory)
            out << "  memory device " << m.device << " " << m.source << ": peak " << m.peakBytes() << " B at "
                << m.peakTimeNs().value_or(0) << " ns (" << m.timeNs.size() << " samples)\n";
        for (const auto &wn : rep->meta.warnings)
            out << "  warning: " << wn << "\n";
    }
}

CommandSpec alignSpec()
{
    CommandSpec spec{"profstudio-cli trace align [--by utc|start|range:NAME[#K]] [options] REPORT...",
                     "Per report, the offset added to its own timestamps to put it on the shared time axis, and "
                     "the residual spread of the anchor (clock skew).",
                     traceLoadOptions(), "REPORT  a report file, or a folder searched recursively for reports",
                     "Examples:\n  profstudio-cli trace align --by utc runs/exp1/\n"
                     "  profstudio-cli trace align --by 'range:actor/compute_adv#2' runs/exp1/"};
    spec.options.push_back({"by", "MODE", "utc (default), start, manual or range:NAME[#K]"});
    spec.options.push_back({"anchor", "NAME[#K]", "with utc/start: report the spread of this NVTX range's start"});
    spec.options.push_back({"offset", "PATH=NS", "manual offset added for one report (repeatable)", true});
    spec.options.push_back({"format", "text|json", "output format (default text)"});
    return spec;
}

// --by and --anchor as an AlignSpec, --offset as (path, ns) pairs. Returns false on a usage
// error (reported).
bool parseAlignOptions(const ParsedArgs &a, std::optional<tr::AlignSpec> &spec,
                       std::vector<std::pair<std::string, int64_t>> &manual, std::ostream &err)
{
    std::string error;
    spec = tr::parseAlignSpec(a.value("by", "utc"), error);
    if (!spec) {
        err << "error: --by: " << error << "\n";
        return false;
    }
    if (a.has("anchor") && spec->mode != tr::AlignMode::Range) {
        auto anchor = tr::parseAlignSpec("range:" + a.value("anchor"), error);
        if (!anchor) {
            err << "error: --anchor: " << error << "\n";
            return false;
        }
        spec->anchor = anchor->anchor;
    }
    for (const auto &o : a.values("offset")) {
        const size_t eq = o.rfind('=');
        auto v = eq == std::string::npos ? std::nullopt : parseInt(o.substr(eq + 1));
        if (!v) {
            err << "error: --offset expects PATH=NS, got '" << o << "'\n";
            return false;
        }
        manual.emplace_back(o.substr(0, eq), *v);
    }
    return true;
}

// The manual offsets per loaded report. Returns false when one names no loaded report (reported).
bool applyManualOffsets(const std::vector<std::pair<std::string, int64_t>> &manual,
                        const std::vector<tr::ReportPtr> &reports, tr::AlignSpec &spec, std::ostream &err)
{
    spec.manualOffsets.assign(reports.size(), 0);
    for (const auto &[path, ns] : manual) {
        bool found = false;
        for (size_t i = 0; i < reports.size(); ++i)
            if (reports[i]->path == path) {
                spec.manualOffsets[i] += ns;
                found = true;
            }
        if (!found) {
            err << "error: --offset names '" << path << "', which is not among the loaded reports\n";
            return false;
        }
    }
    return true;
}

void writeAlign(std::ostream &out, const std::string &format, const std::vector<tr::ReportPtr> &reports,
                const tr::AlignSpec &spec, const tr::AlignResult &res)
{
    const std::string by = tr::alignSpecText(spec);
    const std::string used = tr::alignSpecText({res.used, spec.anchor, {}});
    if (format == "json") {
        JsonWriter w;
        w.beginObject().key("by").value(by).key("used").value(used);
        w.key("reports").beginArray();
        for (size_t i = 0; i < reports.size(); ++i)
            w.beginObject().key("path").value(reports[i]->path).key("offset_ns").value(res.offsets[i]).endObject();
        w.endArray().key("residual_ns").value(res.residualNs).key("warnings").beginArray();
        for (const auto &wn : res.warnings)
            w.value(wn);
        w.endArray().endObject();
        out << w.str() << "\n";
        return;
    }
    out << "aligned by " << by;
    if (res.used != spec.mode)
        out << " (fell back to " << used << ")";
    out << "\n";
    for (size_t i = 0; i < reports.size(); ++i)
        out << std::setw(22) << res.offsets[i] << " ns  " << reports[i]->path << "\n";
    out << "residual: " << (res.residualNs ? std::to_string(*res.residualNs) + " ns" : std::string("n/a")) << "\n";
}

} // namespace

int cmdTraceInfo(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec{"profstudio-cli trace info [options] REPORT...",
                     "Per report: format, exporter version, host, pid, rank and step where known (and for each "
                     "recorded field the variable it came from: rank 3 (RANK, recorded)), UTC start, "
                     "duration, event counts per kind and the peak of each device-memory series.",
                     traceLoadOptions(), "REPORT  a report file, or a folder searched recursively for reports",
                     "Example: profstudio-cli trace info --format json runs/exp1/"};
    spec.options.push_back({"format", "text|json", "output format (default text)"});
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(spec, args, a, {"text", "json"}, format, out, err); s >= 0)
        return s;
    tr::LoadResult r;
    int status = 0;
    if (!loadFromArgs(a, err, r, status))
        return status;
    if (format == "json")
        writeInfoJson(out, r.reports);
    else
        printInfo(out, r.reports);
    return status;
}

int cmdTraceAlign(const Args &args, std::ostream &out, std::ostream &err)
{
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(alignSpec(), args, a, {"text", "json"}, format, out, err); s >= 0)
        return s;
    std::optional<tr::AlignSpec> spec;
    std::vector<std::pair<std::string, int64_t>> manual;
    if (!parseAlignOptions(a, spec, manual, err))
        return 2;
    tr::LoadResult r;
    int status = 0;
    if (!loadFromArgs(a, err, r, status))
        return status;
    if (!applyManualOffsets(manual, r.reports, *spec, err))
        return 2;
    // A range, or an RL phase of that name (update_actor#2).
    const tr::AlignResult res = tr::alignReports(r.reports, *spec, core::analysis::rangeOrPhaseAnchor());
    writeAlign(out, format, r.reports, *spec, res);
    for (const auto &wn : res.warnings)
        err << "warning: " << wn << "\n";
    return status;
}

} // namespace ps::cli
