// profstudio-cli trace phases: the RL phase table of core/analysis/phases/phases.h.

#include "app/cli/commands.h"

#include "app/cli/phaseargs.h"
#include "app/cli/texttable.h"
#include "app/cli/traceload.h"
#include "core/analysis/phases/phases.h"
#include "core/common/csvfield.h"
#include "core/common/jsonwriter.h"
#include "core/common/terminaltext.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/statscsv.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

namespace ps::cli {

namespace an = ps::core::analysis;
namespace tr = ps::core::trace;
using ps::core::JsonWriter;

namespace {

void writeCellJson(JsonWriter &w, const an::PhaseCell &c, size_t column)
{
    const an::GpuBreakdown &b = c.gpu;
    w.beginObject().key("column").value(uint64_t(column)).key("occurrences").value(int64_t(c.occurrences));
    w.key("wall_ns").value(c.wallNs).key("gpu_events").value(uint64_t(b.events)).key("span_ns").value(b.spanNs);
    w.key("compute_ns").value(b.computeNs()).key("communication_ns").value(b.communicationNs());
    w.key("memory_ns").value(b.memoryNs()).key("other_ns").value(b.otherNs()).key("idle_ns").value(b.idleNs);
    w.endObject();
}

void writePhasesJson(std::ostream &out, const an::PhaseTable &t, const std::vector<tr::ReportPtr> &reports)
{
    JsonWriter w;
    w.beginObject().key("steps_counted").value(t.stepsCounted);
    if (t.stepsByCapture)
        w.key("steps_by_capture").value(true);
    // Only when a config names the profiled steps: outputs without one stay as they were.
    if (!t.stepsFrom.empty())
        w.key("steps_from").value(t.stepsFrom);
    if (!t.stepsNote.empty())
        w.key("steps_note").value(t.stepsNote);
    if (!t.stragglerNotes.empty()) {
        w.key("straggler_notes").beginArray();
        for (const std::string &note : t.stragglerNotes)
            w.value(note);
        w.endArray();
    }
    w.key("columns").beginArray();
    for (const an::PhaseColumn &c : t.columns) {
        w.beginObject().key("label").value(c.label).key("group").value(c.group);
        w.key("rank").value(c.rank ? std::optional<int64_t>(*c.rank) : std::nullopt);
        w.key("path").value(reports[c.report]->path).endObject();
    }
    w.endArray().key("rows").beginArray();
    for (const an::PhaseRow &r : t.rows) {
        w.beginObject().key("step").value(r.step).key("phase").value(r.phase);
        w.key("straggler").value(r.straggler >= 0 ? std::optional<int64_t>(r.straggler) : std::nullopt);
        w.key("median_wall_ns").value(r.medianWallNs).key("max_wall_ns").value(r.maxWallNs);
        w.key("lag_pct").value(r.lagPct()).key("lag_ns").value(r.lagNs);
        w.key("straggler_by").value(r.straggler < 0 ? std::optional<std::string>() : r.byArrival ? "arrival" : "work");
        w.key("cells").beginArray();
        for (size_t c = 0; c < r.cells.size(); ++c) {
            if (r.cells[c].present)
                writeCellJson(w, r.cells[c], c);
        }
        w.endArray().endObject();
    }
    w.endArray().endObject();
    out << w.str() << "\n";
}

// One line per present cell.
void writePhasesCsv(std::ostream &out, const an::PhaseTable &t)
{
    out << "step,phase,column,rank,wall_ns,occurrences,compute_ns,communication_ns,memory_ns,other_ns,idle_ns,"
           "straggler\n";
    for (const an::PhaseRow &r : t.rows)
        for (size_t c = 0; c < r.cells.size(); ++c) {
            const an::PhaseCell &cell = r.cells[c];
            if (!cell.present)
                continue;
            const an::GpuBreakdown &b = cell.gpu;
            const auto &col = t.columns[c];
            out << r.step << "," << ps::core::csvTextField(r.phase) << "," << ps::core::csvTextField(col.label) << ","
                << (col.rank ? std::to_string(*col.rank) : std::string()) << "," << cell.wallNs << ","
                << cell.occurrences << "," << b.computeNs() << "," << b.communicationNs() << "," << b.memoryNs() << ","
                << b.otherNs() << "," << b.idleNs << "," << (int(c) == r.straggler ? "true" : "false") << "\n";
        }
}

// The table a person reads: one line per (step, phase) with the spread over ranks and what the
// straggler's GPU did.
void writePhasesText(std::ostream &out, const an::PhaseTable &t)
{
    out << "Phases of " << t.columns.size() << " report(s)"
        << (!t.stepsCounted    ? ""
            : t.stepsByCapture ? "; steps numbered by capture order, as nsys numbered the reports' capture ranges "
                                 "(worker_process_<PID>.<RID>; 1 = the first profiled step)"
                               : "; steps counted from repeated phases (1 = the first profiled step)")
        << (t.stepsFrom.empty() ? "" : "; steps numbered as " + t.stepsFrom + " names them")
        << (t.stepsNote.empty() ? "" : " (" + t.stepsNote + ")") << "\n";
    char line[256];
    std::snprintf(line, sizeof line, "%5s  %-18s %5s %12s %12s  %-20s %-7s %7s  %s\n", "step", "phase", "ranks",
                  "median ms", "max ms", "straggler", "by", "lag", "straggler's GPU: compute/comm/memory/idle %");
    out << line;
    for (const an::PhaseRow &r : t.rows) {
        size_t ranks = 0;
        for (const auto &c : r.cells)
            ranks += c.present;
        std::string gpu = "-";
        if (r.straggler >= 0 && r.cells[size_t(r.straggler)].gpu.spanNs > 0) {
            const an::GpuBreakdown &b = r.cells[size_t(r.straggler)].gpu;
            const double span = double(b.spanNs);
            gpu = fixed1(100 * b.computeNs() / span) + "/" + fixed1(100 * b.communicationNs() / span) + "/" +
                  fixed1(100 * b.memoryNs() / span) + "/" + fixed1(100 * b.idleNs / span);
        }
        const std::string straggler = r.straggler >= 0 ? core::terminalSafe(t.columns[size_t(r.straggler)].label) : "-";
        // How the straggler was found (phasestraggler.h): it made the others wait in the phase's
        // collectives, or it worked longest where there are none.
        const char *by = r.straggler < 0 ? "-" : r.byArrival ? "arrival" : "work";
        std::snprintf(line, sizeof line, "%5lld  %-18s %5zu %12s %12s  %-20s %-7s %6s%%  %s\n", (long long)r.step,
                      core::terminalSafe(r.phase).c_str(), ranks, millisecondsText(r.medianWallNs).c_str(),
                      millisecondsText(r.maxWallNs).c_str(), straggler.c_str(), by, fixed1(r.lagPct()).c_str(),
                      gpu.c_str());
        out << line;
    }
}

// The table over every report that can answer: a report's own events, or its digest's phase
// summary (reportPhaseCells). A report that cannot is named with its reason on `err` and left
// out. `fromSummaries` says whether every column came from a digest's summary.
} // namespace

int cmdTracePhases(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec{
        "profstudio-cli trace phases [--format text|csv|json] [--phases FILE] [options] REPORT...",
        "The RL phase table: per step and phase (rollout, old_log_prob, ref, values, adv, update_critic, "
        "update_actor, weight_sync, reward, env, ...), the wall time on every rank, the straggler and how far "
        "it lags the median rank, and the GPU breakdown (compute, communication, memory, other, idle) inside "
        "the phase. Phases are recognised from verl's marked_timer names and worker stage labels and from "
        "RLinf's Worker.timer labels; --phases adds your own. Steps come from per-step reports, from "
        "ProfilerStep#N ranges, or are counted (a phase that repeats starts the next step).",
        traceLoadOptions(), "REPORT  a report file, or a folder searched recursively for reports",
        "--phases FILE: one 'LABEL = PHASE' per line ('*' matches any characters, '#' starts a comment); "
        "these rules are tried before the built-in ones.\n"
        "JSON: {\"steps_counted\", \"steps_by_capture\" (when true), \"straggler_notes\" (only when the collectives "
        "could not be matched), \"columns\": "
        "[{\"label\", \"group\", \"rank\", \"path\"}], \"rows\": [{\"step\", "
        "\"phase\", \"straggler\" (column index), \"median_wall_ns\", \"max_wall_ns\", \"lag_pct\", \"lag_ns\", "
        "\"straggler_by\" (arrival|work), \"cells\": "
        "[{\"column\", \"occurrences\", \"wall_ns\", \"gpu_events\", \"span_ns\", \"compute_ns\", "
        "\"communication_ns\", \"memory_ns\", \"other_ns\", \"idle_ns\"}]}]}\n"
        "Example: profstudio-cli trace phases runs/exp1/profiling/"};
    spec.options.push_back({"format", "text|csv|json", "output format (default text)"});
    spec.options.push_back(phasesOption());
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(spec, args, a, {"text", "csv", "json"}, format, out, err); s >= 0)
        return s;
    an::PhaseMapping mapping;
    if (!mappingFromArgs(a, err, mapping))
        return 1;
    tr::LoadResult r;
    int status = 0;
    // Digests answer from their phase summaries, made with the built-in phases (a user's need the
    // events); a report beside its digest is read.
    if (!loadFromArgs(a, err, r, status, /*digestOutlines=*/!a.has("phases")))
        return status;
    const an::PhaseTable table = an::computePhaseTable(r.reports, mapping);
    for (const auto &[report, why] : table.problems) {
        err << "error: " << why << "\n";
        status = 1;
    }
    if (table.fromSummaries && format == "text")
        out << "(from the digests' phase summaries; their events were not read)\n";
    for (const std::string &note : table.stragglerNotes)
        err << "warning: every straggler judged by work time, since the run's collectives could not be matched: "
            << core::terminalSafe(note) << "\n";
    if (format == "json")
        writePhasesJson(out, table, r.reports);
    else if (format == "csv")
        writePhasesCsv(out, table);
    else
        writePhasesText(out, table);
    return status;
}

} // namespace ps::cli
