// profstudio-cli demo: writes a realistic RLinf profiling run (config + nsys SQLite exports).

#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "core/analysis/digestsummary.h"
#include "core/common/jsonwriter.h"
#include "core/common/parallelfor.h"
#include "core/common/shellquote.h"
#include "core/common/threads.h"
#include "core/demo/demorun.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/traceloader.h"
#include "core/version.h"

#include <charconv>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <thread>

namespace ps::cli {

namespace {

template <typename T> std::optional<T> parseNumber(const std::string &text)
{
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

CommandSpec demoSpec()
{
    return {"profstudio-cli demo --out DIR [options]",
            "Write a realistic RLinf profiling run to DIR: the Hydra config it stands for "
            "(config/maniskill_ppo_demo.yaml with defaults profile/default@cluster.profiling, and "
            "config/profile/default.yaml) and one Nsight Systems SQLite export per profiled ActorGroup "
            "worker (profiling/rlinf_profile_ActorGroup_<rank>_<PID>.sqlite). One rank straggles. "
            "The output is deterministic for a seed.",
            {
                {"out", "DIR", "output folder (created if missing; demo files in it are overwritten)"},
                {"ranks", "N", "profiled ActorGroup workers, one report each (default 4, 1..4096)"},
                {"steps", "K", "profiled training steps per report (default 3)"},
                {"first-step", "S", "global_step of the first profiled step (default 2)"},
                {"events-per-report", "N", "approximate event rows per report (default: natural size)"},
                {"seed", "S", "seed of every random choice (default 1)"},
                {"digests", "",
                 "write a digest per report instead of its SQLite export (REPORT.sqlite.psdigest, as trace "
                 "digest writes it): a run the desktop opens at once at any rank count"},
                {"summary-only", "", "with --digests: digests without their events (trace digest --summary-only)"},
                {"format", "text|json", "output format of the summary (default text)"},
            },
            {},
            "Example:\n  profstudio-cli demo --out /tmp/demo-run --ranks 8 --steps 2\n"
            "  profstudio-cli compose --config-dir /tmp/demo-run/config --config-name maniskill_ppo_demo"};
}

// Checks the parsed options into `options` and `format`. Returns -1 to go on, else the exit
// status of a usage error (reported).
int demoOptionsFrom(const ParsedArgs &parsed, core::demo::DemoOptions &options, std::string &format, std::ostream &err)
{
    if (!parsed.positionals().empty()) {
        err << "error: demo takes no positional arguments (got '" << parsed.positionals().front() << "')\n";
        return 2;
    }
    if (!parsed.has("out")) {
        err << "error: --out DIR is required\n";
        return 2;
    }
    format = parsed.value("format", "text");
    if (format != "text" && format != "json") {
        err << "error: --format must be text or json (got '" << format << "')\n";
        return 2;
    }
    options.outDir = parsed.value("out");
    bool numbersOk = true;
    auto number = [&](const char *name, auto &target) {
        if (!parsed.has(name))
            return;
        const auto v = parseNumber<std::remove_reference_t<decltype(target)>>(parsed.value(name));
        if (!v) {
            err << "error: --" << name << " expects a number (got '" << parsed.value(name) << "')\n";
            numbersOk = false;
            return;
        }
        target = *v;
    };
    number("ranks", options.ranks);
    number("steps", options.steps);
    number("first-step", options.firstStep);
    number("events-per-report", options.eventsPerReport);
    number("seed", options.seed);
    if (!numbersOk)
        return 2;
    if (const std::string problem = core::demo::validateDemoOptions(options); !problem.empty()) {
        err << "error: " << problem << "\n";
        return 2;
    }
    return -1;
}

// --digests: each export read back by the nsys reader and digested exactly as `trace digest`
// does, then removed, several at once. False with the first failure.
bool digestDemoReports(core::demo::DemoResult &result, bool summaryOnly, std::string &error)
{
    namespace tr = core::trace;
    std::vector<std::string> errors(result.reports.size());
    tr::DigestOptions options;
    options.summaryOnly = summaryOnly;
    options.createdBy = std::string("profstudio-cli demo ") + core::versionString();
    const int threads = core::defaultThreads();
    core::parallelFor(result.reports.size(), threads, [&](size_t i) {
        core::demo::DemoReport &r = result.reports[i];
        const tr::ReportPtr report = tr::loadReport(r.path, tr::ReadContext(), errors[i]);
        if (!report)
            return;
        const std::string digest = r.path + std::string(tr::kDigestSuffix);
        errors[i] = core::analysis::writeDigestWithSummaries(*report, digest, options);
        std::error_code ec;
        if (errors[i].empty() && std::filesystem::remove(r.path, ec))
            r.path = digest;
    });
    for (const std::string &e : errors)
        if (!e.empty()) {
            error = e;
            return false;
        }
    return true;
}

void writeDemoJson(std::ostream &out, const core::demo::DemoResult &result, const core::demo::DemoOptions &options,
                   double seconds)
{
    core::JsonWriter json;
    json.beginObject();
    json.key("out").value(result.outDir);
    json.key("config_dir").value(result.configDir);
    json.key("config_name").value(result.configName);
    json.key("config").value(result.configPath);
    json.key("preset").value(result.presetPath);
    json.key("report_dir").value(result.reportDir);
    json.key("steps").beginArray();
    for (int s : result.profiledSteps)
        json.value(s);
    json.endArray();
    json.key("straggler_rank").value(result.stragglerRank);
    json.key("seed").value(options.seed);
    json.key("total_rows").value(result.totalRows);
    json.key("seconds").value(seconds);
    json.key("reports").beginArray();
    for (const auto &r : result.reports) {
        json.beginObject();
        json.key("path").value(r.path);
        json.key("rank").value(r.rank);
        json.key("pid").value(r.pid);
        json.key("utc_start_ns").value(r.utcEpochNs);
        json.key("rows").value(r.rowCount);
        json.endObject();
    }
    json.endArray();
    json.endObject();
    out << json.str() << "\n";
}

void printDemoSummary(std::ostream &out, const core::demo::DemoResult &result, double seconds)
{
    out << "Demo run written to " << result.outDir << "\n"
        << "  config:  " << result.configPath << "\n"
        << "  preset:  " << result.presetPath << "\n"
        << "  reports: " << result.reports.size() << " in " << result.reportDir << "\n";
    for (const auto &r : result.reports)
        out << "    rank " << r.rank << "  pid " << r.pid << "  " << r.rowCount << " rows  " << r.path << "\n";
    out << "  profiled steps:";
    for (int s : result.profiledSteps)
        out << " " << s;
    out << "\n  straggler: rank " << result.stragglerRank << "\n"
        << "  " << result.totalRows << " event rows in " << seconds << " s\n"
        << "Compose it with: "
        << core::shellJoin(
               {"profstudio-cli", "compose", "--config-dir", result.configDir, "--config-name", result.configName})
        << "\n";
}

} // namespace

int cmdDemo(const Args &args, std::ostream &out, std::ostream &err)
{
    const ArgParser parser(demoSpec());
    ParsedArgs parsed;
    switch (parser.parse(args, parsed, out, err)) {
    case ParseStatus::HelpShown:
        return 0;
    case ParseStatus::UsageError:
        return 2;
    case ParseStatus::Ok:
        break;
    }
    core::demo::DemoOptions options;
    std::string format;
    if (int s = demoOptionsFrom(parsed, options, format, err); s >= 0)
        return s;

    const auto started = std::chrono::steady_clock::now();
    core::demo::DemoResult result;
    std::string error;
    if (!core::demo::writeDemoRun(options, result, error)) {
        err << "error: " << error << "\n";
        return 1;
    }
    if (parsed.has("digests") && !digestDemoReports(result, parsed.has("summary-only"), error)) {
        err << "error: " << error << "\n";
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (format == "json")
        writeDemoJson(out, result, options, seconds);
    else
        printDemoSummary(out, result, seconds);
    return 0;
}

} // namespace ps::cli
