// profstudio-cli trace collectives: every collective matched across ranks, who arrived last and
// how long the others waited (core/analysis/collectives/collectives.h).

#include "app/cli/commands.h"

#include "app/cli/texttable.h"
#include "app/cli/traceload.h"
#include "core/analysis/collectives/collectivekinds.h"
#include "core/analysis/collectives/collectives.h"
#include "core/analysis/phases/collectivephases.h"
#include "core/analysis/phases/collectivestream.h"
#include "core/common/csvfield.h"
#include "core/common/jsonwriter.h"
#include "core/common/terminaltext.h"
#include "core/common/threads.h"
#include "core/trace/persist/digest.h"
#include "core/trace/statscsv.h"
#include "core/trace/store/eventtimes.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <thread>

namespace ps::cli {

namespace an = ps::core::analysis;
namespace tr = ps::core::trace;
using ps::core::JsonWriter;

namespace {

std::string gbps(const std::optional<double> &v)
{
    if (!v)
        return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", *v);
    return b;
}

std::string rankText(int rank)
{
    return rank >= 0 ? std::to_string(rank) : std::string("-");
}

// "rank 5 (9x)", or "-" when no rank arrived last more often than another.
std::string lastText(int rank, size_t times)
{
    return rank >= 0 ? "rank " + std::to_string(rank) + " (" + std::to_string(times) + "x)" : std::string("-");
}

// Per rank: its waits and transfers and how often it arrived last, the ranks that made others
// wait longest first; `top` of them.
void writeRanksText(std::ostream &out, std::vector<an::CollectiveRankTotals> ranks, size_t top)
{
    if (ranks.empty())
        return;
    std::stable_sort(ranks.begin(), ranks.end(), [](const auto &x, const auto &y) {
        return x.waitCausedNs != y.waitCausedNs ? x.waitCausedNs > y.waitCausedNs : x.arrivedLast > y.arrivedLast;
    });
    TextTable t;
    for (const char *h : {"Rank", "Collectives", "Wait (ms)", "Transfer (ms)", "Arrived last", "Wait caused (ms)"})
        t.column(h, false);
    for (size_t i = 0; i < ranks.size() && i < top; ++i) {
        const an::CollectiveRankTotals &r = ranks[i];
        t.rows.push_back({std::to_string(r.rank), std::to_string(r.collectives), millisecondsText(r.waitNs),
                          millisecondsText(r.transferNs), std::to_string(r.arrivedLast),
                          millisecondsText(r.waitCausedNs)});
    }
    out << "\nPer rank (by the wait it caused):\n";
    t.print(out);
    if (ranks.size() > top)
        out << "  ... and " << ranks.size() - top << " more ranks (--top, or --format json for all)\n";
}

void writeRankTotals(JsonWriter &w, const an::CollectiveRankTotals &r)
{
    w.beginObject().key("rank").value(r.rank).key("collectives").value(uint64_t(r.collectives));
    w.key("wait_ns").value(r.waitNs).key("transfer_ns").value(r.transferNs);
    w.key("arrived_last").value(uint64_t(r.arrivedLast)).key("wait_caused_ns").value(r.waitCausedNs).endObject();
}

// The instances, groups and ranks are those the query kept and summed (queryOf).
void writeJson(std::ostream &out, const an::CollectiveAnalysis &a, const std::vector<an::CollectivePhaseRow> &phases)
{
    JsonWriter w;
    w.beginObject().key("collectives").beginArray();
    for (const an::CollectiveInstance &i : a.instances) {
        w.beginObject().key("group").value(i.group).key("group_desc").value(i.groupDesc).key("op").value(i.op);
        w.key("index").value(i.index).key("match").value(an::matchMethodName(i.method));
        w.key("ranks").value(int64_t(i.groupSize >= 0 ? i.groupSize : int(i.members.size())));
        w.key("complete").value(i.complete).key("problem").value(i.problem);
        w.key("bytes").value(i.bytes);
        w.key("last_rank").value(i.complete ? std::optional<int64_t>(i.lastRank) : std::nullopt);
        w.key("skew_ns").value(i.skewNs).key("transfer_ns").value(i.transferNs);
        w.key("algbw_gbps").value(i.algbwGBps).key("busbw_gbps").value(i.busbwGBps).key("members").beginArray();
        for (const an::CollectiveMember &m : i.members) {
            w.beginObject().key("rank").value(m.rank).key("start_ns").value(m.startNs);
            w.key("end_ns").value(m.endNs).key("wait_ns").value(m.waitNs).endObject();
        }
        w.endArray().endObject();
    }
    w.endArray().key("groups").beginArray();
    for (const an::CollectiveGroupSummary &g : a.groups) {
        w.beginObject().key("group").value(g.group).key("group_desc").value(g.groupDesc);
        w.key("match").value(an::matchMethodName(g.method)).key("instances").value(uint64_t(g.instances));
        w.key("complete").value(uint64_t(g.complete)).key("wait_ns").value(g.waitNs);
        w.key("transfer_ns").value(g.transferNs).key("median_busbw_gbps").value(g.medianBusbwGBps);
        w.key("most_often_last").value(g.mostOftenLast >= 0 ? std::optional<int64_t>(g.mostOftenLast) : std::nullopt);
        w.key("times_last").value(uint64_t(g.timesLast)).key("ranks").beginArray();
        for (const an::CollectiveRankTotals &r : g.ranks)
            writeRankTotals(w, r);
        w.endArray().endObject();
    }
    w.endArray().key("ranks").beginArray();
    for (const an::CollectiveRankTotals &r : a.ranks)
        writeRankTotals(w, r);
    w.endArray().key("phases").beginArray();
    for (const an::CollectivePhaseRow &p : phases) {
        w.beginObject().key("step").value(p.step).key("phase").value(p.phase);
        w.key("instances").value(uint64_t(p.instances)).key("wait_ns").value(p.waitNs);
        w.key("transfer_ns").value(p.transferNs);
        w.key("last_rank").value(p.lastRank >= 0 ? std::optional<int64_t>(p.lastRank) : std::nullopt);
        w.key("times_last").value(uint64_t(p.timesLast));
        w.key("straggler").value(p.straggler >= 0 ? std::optional<int64_t>(p.straggler) : std::nullopt);
        w.key("lag_ns").value(p.lagNs).key("ranks").beginArray();
        for (const an::CollectiveRankTotals &r : p.ranks)
            writeRankTotals(w, r);
        w.endArray().endObject();
    }
    w.endArray().key("notes").beginArray();
    for (const std::string &n : a.notes)
        w.value(n);
    w.endArray().endObject();
    out << w.str() << "\n";
}

void writeCsv(std::ostream &out, const std::vector<an::CollectiveInstance> &instances)
{
    out << "group,op,index,match,complete,rank,start_ns,end_ns,wait_ns,last_rank,skew_ns,transfer_ns,bytes,"
           "algbw_gbps,busbw_gbps,problem\n";
    for (const an::CollectiveInstance &i : instances)
        for (const an::CollectiveMember &m : i.members)
            out << ps::core::csvTextField(i.group) << "," << ps::core::csvTextField(i.op) << "," << i.index << ","
                << an::matchMethodName(i.method) << "," << (i.complete ? "true" : "false") << "," << m.rank << ","
                << m.startNs << "," << m.endNs << "," << m.waitNs << ","
                << (i.complete ? std::to_string(i.lastRank) : "") << "," << i.skewNs << "," << i.transferNs << ","
                << (i.bytes ? std::to_string(*i.bytes) : "") << "," << (i.algbwGBps ? gbps(i.algbwGBps) : "") << ","
                << (i.busbwGBps ? gbps(i.busbwGBps) : "") << "," << ps::core::csvTextField(i.problem) << "\n";
}

void writeGroupsText(std::ostream &out, const std::vector<an::CollectiveGroupSummary> &groups)
{
    TextTable t;
    for (const char *h : {"Group", "Match", "Instances", "Complete", "Wait (ms)", "Transfer (ms)",
                          "Median busbw (GB/s)", "Most often last"})
        t.column(h, std::string_view(h) == "Group" || std::string_view(h) == "Match");
    for (const an::CollectiveGroupSummary &g : groups)
        t.rows.push_back({g.group + (g.groupDesc.empty() ? "" : " (" + g.groupDesc + ")"),
                          std::string(an::matchMethodName(g.method)), std::to_string(g.instances),
                          std::to_string(g.complete), millisecondsText(g.waitNs), millisecondsText(g.transferNs),
                          gbps(g.medianBusbwGBps), lastText(g.mostOftenLast, g.timesLast)});
    t.print(out);
}

// Per step and phase: the rank that made the others wait (by arrival) and the wait it caused.
void writePhasesText(std::ostream &out, const std::vector<an::CollectivePhaseRow> &phases)
{
    if (phases.empty())
        return;
    TextTable t;
    for (const char *h :
         {"Step", "Phase", "Instances", "Wait (ms)", "Transfer (ms)", "Most often last", "Straggler", "Lag (ms)"})
        t.column(h, std::string_view(h) == "Phase");
    for (const an::CollectivePhaseRow &p : phases)
        t.rows.push_back({std::to_string(p.step), p.phase, std::to_string(p.instances), millisecondsText(p.waitNs),
                          millisecondsText(p.transferNs), lastText(p.lastRank, p.timesLast),
                          p.straggler >= 0 ? "rank " + std::to_string(p.straggler) : "-", millisecondsText(p.lagNs)});
    out << "\nPer phase:\n";
    t.print(out);
}

// The instances the query kept (the worst and the first incomplete ones), and every selected
// instance's groups and ranks.
void writeText(std::ostream &out, const an::CollectiveAnalysis &a, const std::vector<an::CollectivePhaseRow> &phases,
               size_t top)
{
    std::vector<const an::CollectiveInstance *> sel;
    for (const an::CollectiveInstance &i : a.instances)
        sel.push_back(&i);
    const size_t complete = a.completeCount;
    const std::vector<an::CollectiveGroupSummary> &groups = a.groups;
    out << "Collectives: " << a.instanceCount << " instance(s) in " << groups.size() << " group(s), " << complete
        << " complete (bandwidths in 10^9 B/s as nccl-tests)\n\n";
    if (!groups.empty())
        writeGroupsText(out, groups);
    std::stable_sort(sel.begin(), sel.end(), [](auto *x, auto *y) { return x->skewNs > y->skewNs; });
    TextTable t;
    for (const char *h :
         {"Group", "Op", "Index", "Ranks", "Last", "Skew (ms)", "Median wait (ms)", "Transfer (ms)", "busbw (GB/s)"})
        t.column(h, std::string_view(h) == "Group" || std::string_view(h) == "Op");
    for (const an::CollectiveInstance *i : sel)
        if (i->complete && t.rows.size() < top)
            t.rows.push_back({i->group, i->op, std::to_string(i->index), std::to_string(i->members.size()),
                              rankText(i->lastRank), millisecondsText(i->skewNs),
                              millisecondsText(an::medianWaitNs(*i)), millisecondsText(i->transferNs),
                              gbps(i->busbwGBps)});
    if (!t.rows.empty()) {
        out << "\nWorst instances by skew:\n";
        t.print(out);
    }
    writeRanksText(out, a.ranks, top);
    writePhasesText(out, phases);
    size_t shown = 0, incomplete = a.instanceCount - complete;
    if (incomplete)
        out << "\nIncomplete instances (" << incomplete << "):\n";
    for (const an::CollectiveInstance *i : sel)
        if (!i->complete && shown++ < top)
            out << "  " << core::terminalSafe(i->group) << " " << core::terminalSafe(i->op) << " #" << i->index << " ("
                << i->members.size() << " member(s)): " << core::terminalSafe(i->problem) << "\n";
    if (incomplete > top)
        out << "  ... and " << incomplete - top << " more (--top, or --format json for all)\n";
    for (const std::string &n : a.notes)
        out << "note: " << core::terminalSafe(n) << "\n";
}

// What --group and --op ask for, as the analysis' filter; text output keeps only the `top` worst
// instances and the first `top` incomplete ones, which are all it lists.
an::CollectiveQuery queryOf(const ParsedArgs &a, const std::string &format, size_t top)
{
    an::CollectiveQuery q;
    if (format == "text") { // the worst instances and the first incomplete ones are all it lists
        q.keep = an::CollectiveQuery::Keep::Worst;
        q.worst = top;
    }
    if (!a.has("group") && !a.has("op"))
        return q;
    const std::optional<std::string> group = a.has("group") ? std::optional(a.value("group")) : std::nullopt;
    const std::optional<std::string> op = a.has("op") ? std::optional(a.value("op")) : std::nullopt;
    q.select = [group, op](std::string_view g, std::string_view o) {
        if (group && g != *group)
            return false;
        return !op || o == *op || an::collectiveKindName(an::collectiveKind(o)) == *op;
    };
    return q;
}

// A run given as digests only (a large run's usual shape): each opened as its outline, its
// collectives and phases taken, and released, so 1024 ranks cost the memory of their instances.
// Nullopt when some input is no digest: the run is then loaded as a whole.
std::optional<an::RunCollectives> streamDigests(const ParsedArgs &a, const an::CollectiveQuery &query,
                                                std::ostream &err, int &status, std::vector<tr::ReportPtr> &opened)
{
    std::vector<tr::LoadFailure> missing;
    const std::vector<std::string> files = tr::findReports(a.positionals(), &missing);
    if (files.empty() || !missing.empty() ||
        !std::all_of(files.begin(), files.end(), [](const std::string &f) { return tr::isDigestPath(f); }))
        return std::nullopt;
    tr::LoadOptions opt;
    if (!loadOptionsFromArgs(a, err, opt, status))
        return an::RunCollectives{};
    std::vector<std::string> errors;
    an::RunCollectives run =
        an::collectivesOfDigests(files, core::threadsOr(opt.threads), errors, opened, nullptr, query);
    status = 0;
    for (const std::string &e : errors)
        if (!e.empty()) {
            err << "error: " << e << "\n";
            status = 1;
        }
    for (const tr::ReportPtr &r : opened) // as loadPaths warns
        for (const std::string &w : r->meta.warnings)
            if (w.starts_with(tr::kInvalidDataWarning))
                err << "warning: " << r->path << ": " << w << "\n";
    return run;
}

} // namespace

int cmdTraceCollectives(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec{
        "profstudio-cli trace collectives [--format text|csv|json] [--group G] [--op NAME] [--top N] FILES|DIRS",
        "Every collective matched across the ranks' reports; \"match\" says how: kineto-seq (process group and "
        "PyTorch's `Seq`), kineto-pg-index (k-th collective of the process group, Kineto c10d kernel args), "
        "hccl-group (k-th op of the Ascend HCCL group), nvtx-payload (nsys: k-th call on the NCCL communicator "
        "NCCL's NVTX payload names), stream-order (k-th NCCL/RCCL kernel per NCCL stream: nsys without payloads, "
        "rocpd). Per instance: each member's arrival (kernel start) and "
        "end, the rank that arrived last, the start skew, each member's wait (last arrival - own arrival, within its "
        "kernel), the transfer (the last rank's kernel time), bytes, algbw and busbw as nccl-tests defines them "
        "(10^9 B/s). Instances some members lack are listed as incomplete with the reason. Per step and RL phase "
        "(verl's and RLinf's labels; a digest's phase summary): the waits, and the straggler, the rank whose late "
        "arrivals made the others wait longest. Reports are put on one time axis by UTC (else by start).",
        traceLoadOptions(), "FILES|DIRS  reports (one per rank), or folders searched recursively",
        "JSON: {\"collectives\": [{\"group\", \"group_desc\", \"op\", \"index\", \"match\", \"ranks\", \"complete\", "
        "\"problem\", \"bytes\", \"last_rank\", \"skew_ns\", \"transfer_ns\", \"algbw_gbps\", \"busbw_gbps\", "
        "\"members\": [{\"rank\", \"start_ns\", \"end_ns\", \"wait_ns\"}]}], \"groups\": [{..., \"ranks\": [...]}], "
        "\"ranks\": [{\"rank\", "
        "\"collectives\", \"wait_ns\", \"transfer_ns\", \"arrived_last\", \"wait_caused_ns\"}], \"phases\": "
        "[{\"step\", \"phase\", \"instances\", \"wait_ns\", \"transfer_ns\", \"last_rank\", \"times_last\", "
        "\"straggler\", \"lag_ns\" (the wait it caused, summed over the others), \"ranks\": [...]}], \"notes\": "
        "[...]}\n"
        "Exit status 1 on bad input: a rank twice, a `Group size` its ranks contradict, runs mixed.\n"
        "Example: profstudio-cli trace collectives --group 0 --top 5 runs/exp1/"};
    spec.options.push_back({"format", "text|csv|json", "output format (default text)"});
    spec.options.push_back({"group", "G",
                            "only this process group (its name as the trace gives it); groups and ranks then "
                            "total the instances selected"});
    spec.options.push_back({"op", "NAME",
                            "only this collective (\"allreduce\", or the trace's own name); groups "
                            "and ranks then total the instances selected"});
    spec.options.push_back({"top", "N", "worst instances (and incomplete ones) listed in text (default 10)"});
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(spec, args, a, {"text", "csv", "json"}, format, out, err); s >= 0)
        return s;
    const auto top = countArg(a, "top", 10, err);
    if (!top)
        return 2;
    // Digests open as outlines: their collective records travel in the digest's CREC section, so
    // a run of digests (summary-only too) is matched without decompressing any event.
    tr::LoadResult r;
    int status = 0;
    const an::CollectiveQuery query = queryOf(a, format, *top);
    std::optional<an::RunCollectives> streamed;
    if (!a.positionals().empty())
        streamed = streamDigests(a, query, err, status, r.reports);
    if (status == 2)
        return status;
    if (!streamed && !loadFromArgs(a, err, r, status, /*digestOutlines=*/true))
        return status;
    const an::RunCollectives run =
        streamed ? std::move(*streamed)
                 : an::collectivesOfRun(
                       r.reports,
                       [&](size_t i) { return an::phaseOccurrencesOf(*r.reports[i], an::PhaseMapping::defaults()); },
                       nullptr, query);
    const an::CollectiveAnalysis &c = run.analysis;
    for (const std::string &e : c.errors)
        err << "error: " << e << "\n";
    if (!c.errors.empty())
        return 1;
    if (format == "json")
        writeJson(out, c, run.phases);
    else if (format == "csv")
        writeCsv(out, c.instances);
    else
        writeText(out, c, run.phases, *top);
    return status;
}

} // namespace ps::cli
