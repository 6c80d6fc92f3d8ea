// profstudio-cli trace breakdown | projection: the GPU time analyses of core/analysis.

#include "app/cli/commands.h"

#include "app/cli/traceload.h"
#include "core/analysis/breakdown/breakdown.h"
#include "core/analysis/breakdown/projection.h"
#include "core/analysis/collectives/collectivewait.h"
#include "core/analysis/phases/steps.h"
#include "core/common/csvfield.h"
#include "core/common/jsonwriter.h"
#include "core/trace/analysisguard.h"
#include "core/trace/statscsv.h"

#include <cstdio>
#include <set>
#include <string>

namespace ps::cli {

namespace an = ps::core::analysis;
namespace tr = ps::core::trace;
using ps::core::JsonWriter;

namespace {

// One row of `trace breakdown`: a report, or one device / stream of it.
struct BreakdownRow
{
    const tr::Report *report = nullptr;
    std::optional<uint32_t> device, stream;
    an::GpuBreakdown b;
    std::optional<an::StepWindow> step; // --by step
    an::CommunicationSplit comm;        // b's communication: wait + transfer
};

std::optional<int> rankOf(const tr::Report &r)
{
    return r.identity.rank ? r.identity.rank : r.meta.rank;
}

std::string percent(std::optional<double> v)
{
    if (!v)
        return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", *v);
    return buf;
}

// The row's communication split: the report's members' waits on the communication its filter keeps.
an::CommunicationSplit splitOf(const tr::EventStore &store, const an::WorkClassTable &classes,
                               const an::BreakdownFilter &f, const an::GpuBreakdown &b,
                               std::span<const an::MemberWait> waits)
{
    if (waits.empty())
        return {0, b.communicationNs()};
    const auto pieces = an::collectiveSummaryOf(store, classes, f);
    return an::splitCommunication(b.communicationNs(), pieces.value_or(an::CollectiveSummary{}), waits);
}

// The rows of one report, `waits` being its members' waits in the run's collectives.
void appendBreakdownRows(std::vector<BreakdownRow> &rows, const tr::Report &rep, const std::string &by,
                         std::span<const an::MemberWait> waits)
{
    const tr::EventStore &store = *rep.store;
    const an::WorkClassTable classes(store);
    const auto add = [&](std::optional<uint32_t> device, const an::BreakdownFilter &f,
                         std::optional<an::StepWindow> step) {
        BreakdownRow row{&rep, device, f.stream, an::computeBreakdown(store, classes, f, nullptr), step, {}};
        row.comm = splitOf(store, classes, f, row.b, waits);
        rows.push_back(row);
    };
    if (by == "report") {
        add({}, {}, {});
        return;
    }
    if (by == "step") {
        for (const an::StepWindow &sw : an::stepWindows(store)) {
            an::BreakdownFilter f;
            f.window = sw.window;
            add({}, f, sw);
        }
        return;
    }
    std::set<std::pair<uint32_t, uint32_t>> keys; // (device, stream) of GPU tracks
    for (const tr::Track &t : store.tracks())
        if (tr::isGpuKind(t.kind()))
            keys.insert({t.deviceId(), by == "stream" ? t.streamId() : 0});
    for (auto [device, stream] : keys) {
        an::BreakdownFilter f;
        f.device = device;
        if (by == "stream")
            f.stream = stream;
        add(device, f, {});
    }
}

// Every report's rows; a report whose analysis runs out of memory is named on `err` (status 1)
// and left out, and the others go on.
std::vector<BreakdownRow> breakdownRows(const std::vector<tr::ReportPtr> &reports, const std::string &by,
                                        const an::RunWaits &waits, std::ostream &err, int &status)
{
    std::vector<BreakdownRow> rows;
    for (size_t i = 0; i < reports.size(); ++i) {
        const tr::ReportPtr &rep = reports[i];
        const std::span<const an::MemberWait> w = i < waits.byReport.size()
                                                      ? std::span<const an::MemberWait>(waits.byReport[i])
                                                      : std::span<const an::MemberWait>{};
        std::vector<BreakdownRow> mine;
        std::string error;
        if (tr::analyseReport(*rep, error, [&] { appendBreakdownRows(mine, *rep, by, w); })) {
            rows.insert(rows.end(), mine.begin(), mine.end());
        } else {
            err << "error: " << error << "\n";
            status = 1;
        }
    }
    return rows;
}

void writeBreakdownJson(std::ostream &out, const std::vector<BreakdownRow> &rows)
{
    JsonWriter w;
    w.beginObject().key("reports").beginArray();
    for (const BreakdownRow &r : rows) {
        const an::GpuBreakdown &b = r.b;
        w.beginObject().key("path").value(r.report->path);
        const auto rank = rankOf(*r.report);
        w.key("rank").value(rank ? std::optional<int64_t>(*rank) : std::nullopt);
        std::optional<int64_t> step = r.report->identity.step;
        if (r.step)
            step = r.step->step;
        w.key("step").value(step);
        if (r.step)
            w.key("window_start_ns").value(r.step->window.start).key("window_end_ns").value(r.step->window.end);
        if (r.device)
            w.key("device").value(int64_t(*r.device));
        if (r.stream)
            w.key("stream").value(int64_t(*r.stream));
        w.key("events").value(uint64_t(b.events)).key("span_ns").value(b.spanNs).key("busy_ns").value(b.busyNs);
        w.key("idle_ns").value(b.idleNs).key("compute_ns").value(b.computeNs());
        w.key("communication_ns").value(b.communicationNs());
        w.key("communication_wait_ns").value(r.comm.waitNs).key("communication_transfer_ns").value(r.comm.transferNs);
        w.key("memory_ns").value(b.memoryNs());
        w.key("other_ns").value(b.otherNs());
        for (int c = 0; c < an::kGpuWorkCount; ++c)
            w.key(std::string(an::gpuWorkName(an::GpuWork(c))) + "_union_ns").value(b.unionNs[size_t(c)]);
        w.key("overlap_ns").value(b.commCompOverlapNs).key("overlap_pct").value(b.overlapPct());
        w.endObject();
    }
    w.endArray().endObject();
    out << w.str() << "\n";
}

void writeBreakdownTable(std::ostream &out, const std::vector<BreakdownRow> &rows, bool csv)
{
    const char *sep = csv ? "," : "  ";
    out << (csv ? "path,rank,device,stream,events,span_ns,idle_ns,compute_ns,communication_ns,memory_ns,other_ns,"
                  "overlap_pct,communication_wait_ns,communication_transfer_ns\n"
                : "");
    for (const BreakdownRow &r : rows) {
        const an::GpuBreakdown &b = r.b;
        const auto rank = rankOf(*r.report);
        auto opt = [csv](std::optional<int64_t> v) { return v ? std::to_string(*v) : std::string(csv ? "" : "-"); };
        if (csv) {
            out << ps::core::csvTextField(r.report->path) << sep << opt(rank) << sep << opt(r.device) << sep
                << opt(r.stream) << sep << b.events << sep << b.spanNs << sep << b.idleNs << sep << b.computeNs() << sep
                << b.communicationNs() << sep << b.memoryNs() << sep << b.otherNs() << sep << percent(b.overlapPct())
                << sep << r.comm.waitNs << sep << r.comm.transferNs << "\n";
            continue;
        }
        out << r.report->path << " rank " << opt(rank);
        if (r.device)
            out << " device " << *r.device;
        if (r.stream)
            out << " stream " << *r.stream;
        if (r.step)
            out << " step " << r.step->step;
        auto share = [&](int64_t ns) {
            return std::to_string(ns) + " ns (" + percent(b.spanNs ? 100.0 * double(ns) / double(b.spanNs) : 0.0) +
                   "%)";
        };
        out << "\n  span " << b.spanNs << " ns, " << b.events << " GPU events\n"
            << "  compute       " << share(b.computeNs()) << "\n"
            << "  communication " << share(b.communicationNs()) << "\n"
            << "    wait        " << share(r.comm.waitNs) << "\n"
            << "    transfer    " << share(r.comm.transferNs) << "\n"
            << "  memory        " << share(b.memoryNs()) << "\n"
            << "  other         " << share(b.otherNs()) << "\n"
            << "  idle          " << share(b.idleNs) << "\n"
            << "  comm/comp overlap " << (b.overlapPct() ? percent(b.overlapPct()) + "%" : std::string("-")) << "\n";
    }
}

} // namespace

int cmdTraceBreakdown(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec{
        "profstudio-cli trace breakdown [--format text|csv|json] [--by report|device|stream|step] [options] "
        "REPORT...",
        "GPU time breakdown per report, as HTA's temporal breakdown defines it: span = first GPU event "
        "start to last GPU event end, idle = span minus the union of GPU events (kernels, memcpy, memset, "
        "sync). The busy time is split with the priority compute > communication (NCCL/RCCL/HCCL, Ascend "
        "hcom tasks) > memory (memcpy, memset) > other (sync/wait and the rest), so compute + "
        "communication + memory + other + idle = span. overlap_pct is the share of communication time "
        "during which compute runs (HTA comm/comp overlap; null without communication). Communication is split "
        "into communication_wait, the part of each collective kernel before its instance's last rank arrived (the "
        "collectives of the reports given are matched across ranks as `trace collectives` does), and "
        "communication_transfer, the rest; their sum is communication. Collective kernels that are not matched "
        "(an incomplete instance, a report given alone or without collective records) count as transfer. All "
        "times in ns.",
        traceLoadOptions(), "REPORT  a report file, or a folder searched recursively for reports",
        "JSON: {\"reports\": [{\"path\", \"rank\", \"step\", [\"device\", \"stream\",] \"events\", "
        "\"span_ns\", \"busy_ns\", \"idle_ns\", \"compute_ns\", \"communication_ns\", \"memory_ns\", "
        "\"other_ns\", \"communication_wait_ns\", \"communication_transfer_ns\", \"<class>_union_ns\", "
        "\"overlap_ns\", \"overlap_pct\"}]}\n"
        "Example: profstudio-cli trace breakdown --format json runs/exp1/"};
    spec.options.push_back({"format", "text|csv|json", "output format (default text)"});
    spec.options.push_back({"by", "report|device|stream|step",
                            "one row per report (default), per device, per stream, or per step (the report's "
                            "ProfilerStep#N ranges as windows; events clipped to them)"});
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(spec, args, a, {"text", "csv", "json"}, format, out, err); s >= 0)
        return s;
    const std::string by = a.value("by", "report");
    if (by != "report" && by != "device" && by != "stream" && by != "step") {
        err << "error: --by expects report, device, stream or step, got '" << by << "'\n";
        return 2;
    }
    tr::LoadResult r;
    int status = 0;
    if (!loadFromArgs(a, err, r, status))
        return status;
    const an::RunWaits waits = an::collectiveWaitsOfRun(r.reports);
    for (const std::string &p : waits.problems)
        err << "warning: communication counted as transfer (collectives not matched): " << p << "\n";
    const std::vector<BreakdownRow> rows = breakdownRows(r.reports, by, waits, err, status);
    if (format == "json")
        writeBreakdownJson(out, rows);
    else
        writeBreakdownTable(out, rows, format == "csv");
    return status;
}

int cmdTraceProjection(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec{"profstudio-cli trace projection [--format text|csv|json] [options] REPORT...",
                     "nvtx_gpu_proj_sum (nsys recipe semantics): per NVTX / annotation range and style, the GPU "
                     "time of the kernels, memcpys and memsets launched by CUDA API calls inside the range on its "
                     "thread (projected range = first operation start to last operation end), the wall time of those "
                     "ranges and the ratio projected / wall. Ranges that launched no GPU work are not listed.",
                     traceLoadOptions(), "REPORT  a report file, or a folder searched recursively for reports",
                     "JSON: {\"report\": \"nvtx_gpu_proj_sum\", \"reports\": [{\"path\", \"rank\", \"rows\": "
                     "[{\"range\", \"style\", \"instances\", \"total_proj_ns\", \"total_range_ns\", \"ratio\", "
                     "\"avg_proj_ns\", \"med_proj_ns\", \"min_proj_ns\", \"max_proj_ns\", \"stddev_proj_ns\", "
                     "\"gpu_ops\"}]}]}\n"
                     "Example: profstudio-cli trace projection --format csv report1.sqlite"};
    spec.options.push_back({"format", "text|csv|json", "output format (default text)"});
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(spec, args, a, {"text", "csv", "json"}, format, out, err); s >= 0)
        return s;
    tr::LoadResult r;
    int status = 0;
    if (!loadFromArgs(a, err, r, status))
        return status;
    JsonWriter w;
    w.beginObject().key("report").value("nvtx_gpu_proj_sum").key("reports").beginArray();
    if (format == "csv")
        out << "path,range,style,instances,total_proj_ns,total_range_ns,ratio,avg_proj_ns,med_proj_ns,min_proj_ns,"
               "max_proj_ns,stddev_proj_ns,gpu_ops\n";
    for (const auto &rep : r.reports) {
        const an::ProjectionResult p = an::nvtxGpuProjection(*rep->store);
        if (format == "text")
            out << rep->path << "\n";
        w.beginObject().key("path").value(rep->path);
        const auto rank = rankOf(*rep);
        w.key("rank").value(rank ? std::optional<int64_t>(*rank) : std::nullopt).key("rows").beginArray();
        for (const an::ProjectionRow &row : p.rows) {
            w.beginObject().key("range").value(row.range).key("style").value(row.style);
            w.key("instances").value(row.instances).key("total_proj_ns").value(row.totalProjNs);
            w.key("total_range_ns").value(row.totalRangeNs).key("ratio").value(row.ratio());
            w.key("avg_proj_ns").value(row.avgProjNs).key("med_proj_ns").value(row.medProjNs);
            w.key("min_proj_ns").value(row.minProjNs).key("max_proj_ns").value(row.maxProjNs);
            w.key("stddev_proj_ns").value(row.stddevProjNs).key("gpu_ops").value(row.gpuOps).endObject();
            if (format == "csv")
                out << ps::core::csvTextField(rep->path) << "," << ps::core::csvTextField(row.range) << "," << row.style
                    << "," << row.instances << "," << row.totalProjNs << "," << row.totalRangeNs << "," << row.ratio()
                    << "," << row.avgProjNs << "," << row.medProjNs << "," << row.minProjNs << "," << row.maxProjNs
                    << "," << row.stddevProjNs << "," << row.gpuOps << "\n";
            else if (format == "text")
                out << "  " << row.totalProjNs << " ns projected / " << row.totalRangeNs << " ns wall ("
                    << percent(100 * row.ratio()) << "%)  " << row.instances << "x  " << row.gpuOps << " ops  "
                    << row.style << "  " << row.range << "\n";
        }
        w.endArray().endObject();
    }
    w.endArray().endObject();
    if (format == "json")
        out << w.str() << "\n";
    return status;
}

} // namespace ps::cli
