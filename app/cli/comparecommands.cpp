// profstudio-cli trace compare: run against run (core/analysis/runcompare.h).

#include "app/cli/commands.h"

#include "app/cli/memorycompareoutput.h"
#include "app/cli/phaseargs.h"
#include "app/cli/texttable.h"
#include "app/cli/traceload.h"
#include "core/analysis/runcompare.h"
#include "core/common/csvfield.h"
#include "core/common/jsonwriter.h"
#include "core/trace/statscsv.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace ps::cli {

namespace an = ps::core::analysis;
namespace tr = ps::core::trace;
using ps::core::JsonWriter;

namespace {

std::optional<double> parsePct(const std::string &s)
{
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || !(v >= 0))
        return std::nullopt;
    return v;
}

std::string pctText(std::optional<double> v)
{
    if (!v)
        return "new";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", *v);
    return buf;
}

// A regression past --fail-above: slower by more than `pct` % (or new, with any time).
bool regressesAbove(const an::Delta &d, double pct)
{
    const auto p = d.deltaPct();
    return p ? *p > pct : d.candidateNs > 0;
}

void writeUnmatchedText(std::ostream &out, const char *side, const std::vector<size_t> &indices,
                        const std::vector<tr::ReportPtr> &reports)
{
    if (indices.empty())
        return;
    out << "Only in the " << side << " (" << indices.size() << "):\n";
    for (size_t i : indices)
        out << "  " << reports[i]->path << "  [" << an::matchKey(*reports[i]) << "]\n";
}

void writeCompareText(std::ostream &out, const an::RunComparison &c, const std::vector<tr::ReportPtr> &base,
                      const std::vector<tr::ReportPtr> &cand, size_t top)
{
    out << "Matched " << c.match.pairs.size() << " report(s) by group, rank and step\n";
    writeUnmatchedText(out, "baseline", c.match.baselineOnly, base);
    writeUnmatchedText(out, "candidate", c.match.candidateOnly, cand);
    size_t changed = 0;
    for (const an::Delta &d : c.deltas)
        changed += d.changed;
    out << changed << " change(s) beyond the tolerance, largest first" << (changed > top ? " (--top shown)" : "")
        << ":\n";
    char line[512];
    std::snprintf(line, sizeof line, "  %-10s %5s  %-44s %12s %12s %12s %8s\n", "kind", "step", "name", "baseline ms",
                  "candidate ms", "delta ms", "delta");
    out << line;
    size_t shown = 0;
    for (const an::Delta &d : c.deltas) {
        if (!d.changed || shown++ >= top)
            continue;
        std::snprintf(line, sizeof line, "  %-10s %5s  %-44s %12s %12s %12s %8s\n", an::deltaKindName(d.kind),
                      d.step ? std::to_string(*d.step).c_str() : "", d.name.substr(0, 44).c_str(),
                      millisecondsText(d.baselineNs).c_str(), millisecondsText(d.candidateNs).c_str(),
                      millisecondsText(d.deltaNs()).c_str(), pctText(d.deltaPct()).c_str());
        out << line;
    }
    writeMemoryPeaksText(out, an::compareMemoryPeaks(c.match, base, cand));
}

void writeCompareCsv(std::ostream &out, const an::RunComparison &c)
{
    out << "kind,step,name,baseline_ns,candidate_ns,delta_ns,delta_pct,changed\n";
    for (const an::Delta &d : c.deltas) {
        const auto pct = d.deltaPct();
        char pctBuf[32] = "";
        if (pct)
            std::snprintf(pctBuf, sizeof pctBuf, "%.3f", *pct);
        out << an::deltaKindName(d.kind) << "," << (d.step ? std::to_string(*d.step) : std::string()) << ","
            << ps::core::csvTextField(d.name) << "," << d.baselineNs << "," << d.candidateNs << "," << d.deltaNs()
            << "," << pctBuf << "," << (d.changed ? "true" : "false") << "\n";
    }
}

void writeUnmatchedJson(JsonWriter &w, const char *key, const std::vector<size_t> &indices,
                        const std::vector<tr::ReportPtr> &reports)
{
    w.key(key).beginArray();
    for (size_t i : indices)
        w.beginObject().key("path").value(reports[i]->path).key("key").value(an::matchKey(*reports[i])).endObject();
    w.endArray();
}

void writeCompareJson(std::ostream &out, const an::RunComparison &c, const std::vector<tr::ReportPtr> &base,
                      const std::vector<tr::ReportPtr> &cand)
{
    JsonWriter w;
    w.beginObject().key("matched").beginArray();
    for (const auto &[b, k] : c.match.pairs)
        w.beginObject()
            .key("key")
            .value(an::matchKey(*base[b]))
            .key("baseline")
            .value(base[b]->path)
            .key("candidate")
            .value(cand[k]->path)
            .endObject();
    w.endArray();
    writeUnmatchedJson(w, "baseline_only", c.match.baselineOnly, base);
    writeUnmatchedJson(w, "candidate_only", c.match.candidateOnly, cand);
    w.key("deltas").beginArray();
    for (const an::Delta &d : c.deltas) {
        w.beginObject().key("kind").value(an::deltaKindName(d.kind)).key("step").value(d.step);
        w.key("name").value(d.name).key("baseline_ns").value(d.baselineNs).key("candidate_ns").value(d.candidateNs);
        w.key("delta_ns").value(d.deltaNs()).key("delta_pct").value(d.deltaPct()).key("changed").value(d.changed);
        w.endObject();
    }
    w.endArray();
    writeMemoryPeaksJson(w, an::compareMemoryPeaks(c.match, base, cand));
    w.endObject();
    out << w.str() << "\n";
}

CommandSpec compareSpec()
{
    CommandSpec spec{
        "profstudio-cli trace compare [--format text|csv|json] [--tolerance PCT] [--fail-above PCT] [options] "
        "BASELINE CANDIDATE",
        "What changed between two runs. Reports are matched by worker group, rank and step (by file name when "
        "they have no rank); unmatched ones are listed. Over the matched reports it compares the RL phases (the "
        "slowest rank per step and phase, and every rank), annotation ranges and kernels (total time), and the "
        "GPU breakdown (compute, communication, memory, other, idle), each as baseline, candidate, delta in ns "
        "and in % of the baseline, largest first. Exit status 1 when --fail-above is given and something got "
        "slower by more than that (or is new).",
        traceLoadOptions(),
        "BASELINE   the baseline run: a report or a folder of reports\n"
        "  CANDIDATE  the run to compare with it",
        "JSON: {\"matched\": [{\"key\", \"baseline\", \"candidate\"}], \"baseline_only\": [{\"path\", \"key\"}], "
        "\"candidate_only\": [...], \"deltas\": [{\"kind\" (phase|phase_rank|range|kernel|breakdown), \"step\", "
        "\"name\", \"baseline_ns\", \"candidate_ns\", \"delta_ns\", \"delta_pct\" (null when new), \"changed\"}], "
        "\"memory_peaks\": [{\"key\", \"device\", \"source\", \"baseline_bytes\", \"candidate_bytes\", \"delta_pct\"}] "
        "(per matched rank, the highest peak of each memory source on each side)}\n"
        "Example: profstudio-cli trace compare --fail-above 10 runs/monday/ runs/tuesday/"};
    spec.options.push_back({"format", "text|csv|json", "output format (default text)"});
    spec.options.push_back({"tolerance", "PCT", "a delta within +-PCT % of the baseline is no change (default 5)"});
    spec.options.push_back({"fail-above", "PCT", "exit 1 when anything got slower by more than PCT %"});
    spec.options.push_back({"top", "N", "text: show at most N changes (default 30)"});
    spec.options.push_back(phasesOption());
    return spec;
}

} // namespace

int cmdTraceCompare(const Args &args, std::ostream &out, std::ostream &err)
{
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(compareSpec(), args, a, {"text", "csv", "json"}, format, out, err); s >= 0)
        return s;
    if (a.positionals().size() != 2) {
        err << "error: trace compare needs BASELINE and CANDIDATE (see --help)\n";
        return 2;
    }
    an::CompareOptions options;
    const auto tolerance = parsePct(a.value("tolerance", "5"));
    const auto failAbove = a.has("fail-above") ? parsePct(a.value("fail-above")) : std::optional<double>();
    if (!tolerance || (a.has("fail-above") && !failAbove)) {
        err << "error: --tolerance and --fail-above expect a percentage >= 0\n";
        return 2;
    }
    const auto top = countArg(a, "top", 30, err);
    if (!top)
        return 2;
    options.tolerancePct = *tolerance;
    if (!mappingFromArgs(a, err, options.phases))
        return 1;
    tr::LoadOptions opt;
    int status = 0, candidateStatus = 0;
    if (!loadOptionsFromArgs(a, err, opt, status))
        return status;
    // Digests answer from their summaries, made with the built-in phases (a user's need the events).
    opt.digestOutlines = options.phases.rules() == an::PhaseMapping::defaults().rules();
    tr::LoadResult base, cand;
    loadPaths({a.positionals()[0]}, opt, err, base, status);
    loadPaths({a.positionals()[1]}, opt, err, cand, candidateStatus);
    if (base.reports.empty() || cand.reports.empty())
        return 1;
    const an::RunComparison c = an::compareRuns(base.reports, cand.reports, options);
    for (const std::string &why : c.problems) // what a damaged digest could not answer
        err << "warning: " << why << "\n";
    if (format == "json")
        writeCompareJson(out, c, base.reports, cand.reports);
    else if (format == "csv")
        writeCompareCsv(out, c);
    else
        writeCompareText(out, c, base.reports, cand.reports, *top);
    bool failed = status != 0 || candidateStatus != 0;
    if (failAbove)
        for (const an::Delta &d : c.deltas)
            failed = failed || (d.changed && regressesAbove(d, *failAbove));
    return failed ? 1 : 0;
}

} // namespace ps::cli
