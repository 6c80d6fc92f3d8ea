// The command tables of profstudio-cli, its top-level help and the dispatch of a command line to
// a command (../shared/spec/cli.md).

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "core/version.h"

#include <cstring>
#include <functional>

namespace ps::cli {

namespace {

struct Command
{
    const char *name;
    const char *summary;
    std::function<int(const Args &, std::ostream &, std::ostream &)> run;
};

const std::vector<Command> &configCommands()
{
    static const std::vector<Command> k = {
        {"compose", "compose a Hydra config, print it as Hydra's --cfg job does", cmdCompose},
        {"explain", "show every file:line that set a value (provenance)", cmdExplain},
        {"validate", "check a profiling config; located diagnostics", cmdValidate},
        {"plan", "launch command, environment and output files of every profiled worker", cmdPlan},
        {"export", "export as yaml, yaml-minimal, overrides, ray-job, migration, collect or ray-digest", cmdExport},
        {"demo", "write a realistic RLinf demo run (config + nsys SQLite exports)", cmdDemo},
    };
    return k;
}

const std::vector<Command> &traceCommands()
{
    static const std::vector<Command> k = {
        {"info", "per report: format, identity, UTC start, duration, event counts", cmdTraceInfo},
        {"stats", "nvtx_sum, kernel_sum and compare across reports", cmdTraceStats},
        {"align", "offsets that put reports on one time axis", cmdTraceAlign},
        {"cache", "info, prune or clear the report cache (size cap, LRU eviction)", cmdTraceCache},
        {"digest", "one compact digest per report, beside it or under --out (zstd)", cmdTraceDigest},
        {"breakdown", "GPU time: compute, communication, memory, idle, comm/comp overlap", cmdTraceBreakdown},
        {"projection", "nvtx_gpu_proj_sum: GPU time of the work launched in each range", cmdTraceProjection},
        {"phases", "RL phases per step and rank: wall time, straggler, GPU breakdown", cmdTracePhases},
        {"compare", "run against run: phase, range, kernel and GPU breakdown deltas", cmdTraceCompare},
        {"memory", "CUDA memory snapshots / timelines: peak, live blocks at the peak, OOMs", cmdTraceMemory},
        {"collectives", "collectives matched across ranks: who arrived last, waits, transfer, busbw",
         cmdTraceCollectives},
    };
    return k;
}

// `name` and spaces up to `width` columns, at least one space.
std::string padded(const char *name, size_t width)
{
    const size_t n = std::strlen(name);
    return std::string(name) + std::string(n < width ? width - n : 1, ' ');
}

void printHelp(std::ostream &out)
{
    out << "Usage: profstudio-cli COMMAND [options] [args]\n\n"
           "Compose and check profiling configs for RLinf and verl, and read Nsight Systems, rocprof,\n"
           "Ascend and PyTorch profiler traces. Run 'profstudio-cli COMMAND --help' for a command's options.\n\n"
           "Config commands:\n";
    for (const auto &c : configCommands())
        out << "  " << padded(c.name, 12) << c.summary << "\n";
    out << "\nTrace commands:\n";
    for (const auto &c : traceCommands())
        out << "  trace " << padded(c.name, 11) << c.summary << "\n";
    out << "\nGlobal options:\n"
           "  --help, -h    show this help\n"
           "  --version     print the version\n\n"
           "Exit status: 0 success, 1 the input has errors, 2 bad usage.\n";
}

int dispatch(const std::vector<Command> &table, const std::string &word, const Args &rest, const char *group,
             std::ostream &out, std::ostream &err)
{
    for (const auto &c : table)
        if (word == c.name)
            return c.run(rest, out, err);
    err << "error: unknown " << group << " '" << word << "' (see profstudio-cli --help)\n";
    return 2;
}

// `trace` alone (usage error) or `trace --help`: the trace commands and their summaries.
int traceHelp(const Args &args, std::ostream &out, std::ostream &err)
{
    std::ostream &o = args.size() < 2 ? err : out;
    // The usage names every command of the table that takes reports, so a new one is never left out.
    std::string onReports;
    for (const auto &c : traceCommands())
        if (std::strcmp(c.name, "compare") != 0 && std::strcmp(c.name, "cache") != 0)
            onReports += (onReports.empty() ? "" : "|") + std::string(c.name);
    o << "Usage: profstudio-cli trace " << onReports << " [options] REPORT...\n"
      << "       profstudio-cli trace compare [options] BASELINE CANDIDATE\n"
         "       profstudio-cli trace cache info|prune|clear [options]\n\n";
    for (const auto &c : traceCommands())
        o << "  " << padded(c.name, 12) << c.summary << "\n";
    return args.size() < 2 ? 2 : 0;
}

} // namespace

int run(const Args &args, std::ostream &out, std::ostream &err)
{
    if (args.empty()) {
        printHelp(err);
        return 2;
    }
    const std::string &first = args[0];
    if (first == "--help" || first == "-h" || first == "help") {
        printHelp(out);
        return 0;
    }
    if (first == "--version") {
        out << "profstudio-cli " << ps::core::versionString() << "\n";
        return 0;
    }
    if (first == "trace") {
        if (args.size() < 2 || args[1] == "--help" || args[1] == "-h")
            return traceHelp(args, out, err);
        return dispatch(traceCommands(), args[1], Args(args.begin() + 2, args.end()), "trace command", out, err);
    }
    return dispatch(configCommands(), first, Args(args.begin() + 1, args.end()), "command", out, err);
}

} // namespace ps::cli
