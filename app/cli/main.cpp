// profstudio-cli: the scriptable face of the core (../shared/spec/cli.md). Links no Qt.

#include "app/cli/commands.h"
#include "core/version.h"

#include <cstring>
#include <functional>
#include <iostream>

namespace {

struct Command
{
    const char *name;
    const char *summary;
    std::function<int(const ps::cli::Args &, std::ostream &, std::ostream &)> run;
};

const std::vector<Command> &configCommands()
{
    static const std::vector<Command> k = {
        {"compose", "compose a Hydra config, print it as Hydra's --cfg job does", ps::cli::cmdCompose},
        {"explain", "show every file:line that set a value (provenance)", ps::cli::cmdExplain},
        {"validate", "check a profiling config; located diagnostics", ps::cli::cmdValidate},
        {"plan", "launch command, environment and output files of every profiled worker", ps::cli::cmdPlan},
        {"export", "export as yaml, yaml-minimal, overrides or ray-job", ps::cli::cmdExport},
        {"demo", "write a realistic RLinf demo run (config + nsys SQLite exports)", ps::cli::cmdDemo},
    };
    return k;
}

const std::vector<Command> &traceCommands()
{
    static const std::vector<Command> k = {
        {"info", "per report: format, identity, UTC start, duration, event counts", ps::cli::cmdTraceInfo},
        {"stats", "nvtx_sum, kernel_sum and compare across reports", ps::cli::cmdTraceStats},
        {"align", "offsets that put reports on one time axis", ps::cli::cmdTraceAlign},
        {"cache", "info, prune or clear the report cache (size cap, LRU eviction)", ps::cli::cmdTraceCache},
        {"breakdown", "GPU time: compute, communication, memory, idle, comm/comp overlap", ps::cli::cmdTraceBreakdown},
        {"projection", "nvtx_gpu_proj_sum: GPU time of the work launched in each range", ps::cli::cmdTraceProjection},
    };
    return k;
}

void printHelp(std::ostream &out)
{
    out << "Usage: profstudio-cli COMMAND [options] [args]\n\n"
           "Compose and check profiling configs for RLinf and verl, and read Nsight Systems, rocprof,\n"
           "Ascend and PyTorch profiler traces. Run 'profstudio-cli COMMAND --help' for a command's options.\n\n"
           "Config commands:\n";
    for (const auto &c : configCommands())
        out << "  " << c.name << std::string(12 - std::strlen(c.name), ' ') << c.summary << "\n";
    out << "\nTrace commands:\n";
    for (const auto &c : traceCommands())
        out << "  trace " << c.name << std::string(11 - std::strlen(c.name), ' ') << c.summary << "\n";
    out << "\nGlobal options:\n"
           "  --help, -h    show this help\n"
           "  --version     print the version\n\n"
           "Exit status: 0 success, 1 the input has errors, 2 bad usage.\n";
}

int dispatch(const std::vector<Command> &table, const std::string &word, const ps::cli::Args &rest, const char *group)
{
    for (const auto &c : table)
        if (word == c.name)
            return c.run(rest, std::cout, std::cerr);
    std::cerr << "error: unknown " << group << " '" << word << "' (see profstudio-cli --help)\n";
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    std::ios::sync_with_stdio(false);
    ps::cli::Args args(argv + 1, argv + argc);
    if (args.empty()) {
        printHelp(std::cerr);
        return 2;
    }
    const std::string &first = args[0];
    if (first == "--help" || first == "-h" || first == "help") {
        printHelp(std::cout);
        return 0;
    }
    if (first == "--version") {
        std::cout << "profstudio-cli " << ps::core::versionString() << "\n";
        return 0;
    }
    if (first == "trace") {
        if (args.size() < 2 || args[1] == "--help" || args[1] == "-h") {
            std::ostream &o = args.size() < 2 ? std::cerr : std::cout;
            o << "Usage: profstudio-cli trace info|stats|align|breakdown|projection [options] REPORT...\n"
                 "       profstudio-cli trace cache info|prune|clear [options]\n\n";
            for (const auto &c : traceCommands())
                o << "  " << c.name << std::string(12 - std::strlen(c.name), ' ') << c.summary << "\n";
            return args.size() < 2 ? 2 : 0;
        }
        return dispatch(traceCommands(), args[1], ps::cli::Args(args.begin() + 2, args.end()), "trace command");
    }
    return dispatch(configCommands(), first, ps::cli::Args(args.begin() + 1, args.end()), "command");
}
