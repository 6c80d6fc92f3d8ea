// validate, plan and export (../shared/spec/cli.md, "Config commands"): compose with the shared
// composition arguments, run the profiling analysis (core/profiling/analysis.h) and print it.

#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/composeargs.h"
#include "core/common/atomicfile.h"
#include "core/common/jsonwriter.h"
#include "core/profiling/analysis.h"
#include "core/profiling/diagnosticfold.h"

#include <cstdlib>
#include <memory>
#include <unistd.h>

namespace ps::cli {

namespace {

namespace cfg = ps::core::config;
namespace prof = ps::core::profiling;

// The options every profiling command shares: the cluster and the launch facts the config
// cannot know (LaunchOptions / ClusterDescription), each with the documented default.
void appendPlanOptions(CommandSpec &spec)
{
    spec.options.push_back({"python", "PATH", "workers' Python interpreter (default /usr/bin/python3)"});
    spec.options.push_back({"rlinf-repo", "DIR", "RLinf checkout on the cluster (default /opt/RLinf)"});
    spec.options.push_back(
        {"driver-cwd", "DIR",
         "driver's working directory, for a relative runner.logger.log_path (default: the RLinf repo)"});
    spec.options.push_back({"log-path", "DIR", "override runner.logger.log_path (as run_embodiment.sh does)"});
    spec.options.push_back({"experiment-name", "NAME", "override runner.logger.experiment_name"});
    spec.options.push_back(
        {"ray-session-dir", "DIR", "Ray session dir on each node (default /tmp/ray/session_latest)"});
    spec.options.push_back({"temp-dir", "DIR", "the driver's temp dir, RLinf's fallback output dir (default /tmp)"});
    spec.options.push_back(
        {"remote-config-dir", "DIR", "the config dir as the cluster sees it, for the driver / ray job line"});
    spec.options.push_back({"working-dir", "DIR", "ray job submit: runtime env working_dir (default .)"});
    spec.options.push_back({"nodes", "N", "number of nodes (default: cluster.num_nodes / trainer.nnodes)"});
    spec.options.push_back({"gpus-per-node", "N", "accelerators per node (default: trainer.n_gpus_per_node, RLinf 8)"});
    spec.options.push_back({"available-backends", "LIST",
                            "profiling tools installed on the nodes, e.g. nsight,rocprof_sys (default: not checked)"});
    spec.options.push_back({"verl-version", "VERSION",
                            "verl release whose rules, names and outputs apply: " + prof::supportedVerlVersions() +
                                " (also v0.9.0 spellings; default: detected from the config's schema)"});
}

// Which frameworks and releases the profiling commands know, for every command's help.
const char *const kSupportedReleases =
    "\n\nSupported: verl legacy flat schema (trainer.profile_steps), 0.5-0.7.0, 0.7.1, 0.8, 0.9 and main (1dda039b), "
    "detected from the config's schema (--verl-version overrides); RLinf v0.3 and main (a3816b59), including the old "
    "cluster.nsight block.";

// "verl 0.9 (detected: actor_rollout_ref...schedule present)" for validate and plan.
std::string verlVersionLine(const prof::AnalysisResult &r)
{
    const prof::VerlVersionDetection &d = r.model.verl.detection;
    std::string line = std::string("verl version: ") + prof::verlVersionName(d.version);
    if (d.overridden)
        return line + " (--verl-version)";
    line += d.detected ? " (detected: " : " (assumed: ";
    for (size_t i = 0; i < d.why.size(); ++i)
        line += (i ? "; " : "") + d.why[i];
    return line + ")";
}

bool parseCount(const ParsedArgs &parsed, const std::string &name, std::optional<long long> &out, std::ostream &err)
{
    if (!parsed.has(name))
        return true;
    const std::string v = parsed.value(name);
    char *end = nullptr;
    const long long n = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || n < 1 || n > 1000000) {
        err << "error: --" << name << " must be a positive integer, not '" << v << "'\n";
        return false;
    }
    out = n;
    return true;
}

// --format json when composition fails: a document with the error, in the diagnostics' shape.
void writeComposeErrorJson(const cfg::ConfigError &e, std::ostream &out)
{
    core::JsonWriter json;
    json.beginObject().key("framework").null().key("error").beginObject();
    json.key("message").value(e.message());
    json.key("key").value(e.keyPath());
    json.key("file").value(e.where().file);
    json.key("line").value(e.where().line);
    json.key("column").value(e.where().column);
    json.endObject().key("diagnostics").beginArray().endArray().endObject();
    out << json.str() << "\n";
}

// Parses, composes and analyses. Returns the exit status to use when it is not -1.
int prepare(const CommandSpec &spec, const Args &args, std::ostream &out, std::ostream &err, ParsedArgs &parsed,
            prof::AnalysisInput &input)
{
    ArgParser parser(spec);
    const ParseStatus st = parser.parse(args, parsed, out, err);
    if (st == ParseStatus::HelpShown)
        return 0;
    if (st == ParseStatus::UsageError)
        return 2;
    if (!composeOptionsFrom(parsed, parsed.positionals(), input.compose, err))
        return 2;
    prof::LaunchOptions &l = input.launch;
    l.python = parsed.value("python", l.python);
    l.rlinfRepo = parsed.value("rlinf-repo", l.rlinfRepo);
    l.driverCwd = parsed.optional("driver-cwd");
    l.logPath = parsed.optional("log-path");
    l.experimentName = parsed.optional("experiment-name");
    l.raySessionDir = parsed.value("ray-session-dir", l.raySessionDir);
    l.tempDir = parsed.value("temp-dir", l.tempDir);
    l.remoteConfigDir = parsed.value("remote-config-dir", l.remoteConfigDir);
    l.workingDir = parsed.value("working-dir", l.workingDir);
    if (parsed.has("verl-version")) {
        input.verlVersion = prof::parseVerlVersion(parsed.value("verl-version"));
        if (!input.verlVersion) {
            err << "error: --verl-version must be one of " << prof::supportedVerlVersions() << ", not '"
                << parsed.value("verl-version") << "'\n";
            return 2;
        }
    }
    if (!parseCount(parsed, "nodes", input.cluster.numNodes, err) ||
        !parseCount(parsed, "gpus-per-node", input.cluster.gpusPerNode, err))
        return 2;
    if (parsed.has("available-backends")) {
        std::vector<std::string> list;
        std::string v = parsed.value("available-backends");
        for (size_t i = 0; i <= v.size();) {
            const size_t j = std::min(v.find(',', i), v.size());
            if (j > i)
                list.push_back(v.substr(i, j - i));
            i = j + 1;
        }
        input.cluster.availableBackends = list;
    }
    std::optional<cfg::ConfigError> failure;
    auto composed = composeOrReport(input.compose, err, &failure);
    if (!composed) {
        if (failure && parsed.value("format") == "json")
            writeComposeErrorJson(*failure, out);
        return 1;
    }
    input.composed = std::make_shared<const cfg::ComposeResult>(std::move(*composed));
    return -1;
}

bool formatIs(const ParsedArgs &parsed, std::initializer_list<const char *> allowed, std::string &format,
              std::ostream &err)
{
    format = parsed.value("format", *allowed.begin());
    for (const char *a : allowed)
        if (format == a)
            return true;
    err << "error: --format must be one of";
    for (const char *a : allowed)
        err << " " << a;
    err << ", not '" << format << "'\n";
    return false;
}

// One line per diagnostic, those that repeat per rank folded into one listing the ranks
// (diagnosticfold.h); --format json documents every one (writeDiagnosticsJson).
void printDiagnostics(const prof::Diagnostics &diags, std::ostream &err)
{
    for (const auto &d : prof::foldRepeatedDiagnostics(diags))
        err << d.format() << "\n";
}

void writeDiagnosticsJson(const prof::Diagnostics &diags, core::JsonWriter &json)
{
    json.beginArray();
    for (const auto &d : diags) {
        json.beginObject();
        json.key("severity").value(prof::severityName(d.severity));
        json.key("rule").value(d.rule);
        json.key("message").value(d.message);
        json.key("key").value(d.key);
        json.key("file").value(d.file);
        json.key("line").value(d.line);
        json.key("column").value(d.column);
        json.endObject();
    }
    json.endArray();
}

void writeStrings(const std::vector<std::string> &v, core::JsonWriter &json)
{
    json.beginArray();
    for (const auto &s : v)
        json.value(s);
    json.endArray();
}

void writeHooksJson(const prof::WorkerLaunch &w, core::JsonWriter &json)
{
    if (w.hooks.empty())
        return;
    json.key("hooks").beginArray();
    for (const auto &h : w.hooks) {
        json.beginObject().key("when").value(h.when).key("argv");
        writeStrings(h.argv, json);
        json.key("command").value(h.command).key("env").beginObject();
        for (const auto &[k, v] : h.env)
            json.key(k).value(v);
        json.endObject().endObject();
    }
    json.endArray();
}

void writeHooksText(const prof::WorkerLaunch &w, std::ostream &out)
{
    for (const auto &h : w.hooks) {
        out << "    hook (" << h.when << "): " << h.command << "\n";
        for (const auto &[k, v] : h.env)
            out << "      env: " << k << "=" << v << "\n";
    }
}

void writePlanJson(const prof::AnalysisResult &r, core::JsonWriter &json)
{
    const prof::LaunchPlan &p = r.launch;
    json.beginObject();
    json.key("framework").value(prof::frameworkName(p.framework));
    if (p.framework == prof::Framework::Verl)
        json.key("verl_version").value(prof::verlVersionName(r.model.verl.version));
    json.key("backend").value(p.backend);
    json.key("driver").beginObject();
    json.key("argv");
    writeStrings(p.driverArgv, json);
    json.key("command").value(p.driverCommand);
    json.endObject();
    json.key("workers").beginArray();
    for (const auto &w : p.workers) {
        if (!w.wrapped)
            continue;
        json.beginObject();
        json.key("name").value(w.name);
        json.key("group").value(w.group);
        json.key("rank").value(static_cast<int64_t>(w.rank));
        if (w.node < 0)
            json.key("node").null();
        else
            json.key("node").value(static_cast<int64_t>(w.node));
        if (!w.roles.empty()) {
            json.key("roles");
            writeStrings(w.roles, json);
        }
        json.key("argv");
        writeStrings(w.argv, json);
        json.key("command").value(w.command);
        json.key("env").beginObject();
        for (const auto &[k, v] : w.env)
            json.key(k).value(v);
        json.endObject();
        json.key("capture_ranges").beginArray();
        for (const auto &c : w.captureRanges) {
            json.beginObject().key("label").value(c.label).key("steps").beginArray();
            for (long long s : c.steps)
                json.value(static_cast<int64_t>(s));
            json.endArray().endObject();
        }
        json.endArray();
        json.key("outputs");
        writeStrings(w.outputs, json);
        writeHooksJson(w, json);
        if (!w.reason.empty())
            json.key("note").value(w.reason);
        json.endObject();
    }
    json.endArray();
    json.key("not_wrapped").beginArray();
    for (const auto &w : p.workers) {
        if (w.wrapped)
            continue;
        json.beginObject().key("name").value(w.name).key("reason").value(w.reason).key("outputs");
        writeStrings(w.outputs, json);
        if (!w.env.empty()) {
            json.key("env").beginObject();
            for (const auto &[k, v] : w.env)
                json.key(k).value(v);
            json.endObject();
        }
        writeHooksJson(w, json);
        json.endObject();
    }
    json.endArray();
    json.key("collect").beginArray();
    for (const auto &[node, dir] : p.collect)
        json.beginObject().key("node").value(static_cast<int64_t>(node)).key("dir").value(dir).endObject();
    json.endArray();
    json.key("notes");
    writeStrings(p.notes, json);
    json.key("diagnostics");
    writeDiagnosticsJson(r.diagnostics, json);
    json.endObject();
}

void writePlanText(const prof::AnalysisResult &r, std::ostream &out)
{
    const prof::LaunchPlan &p = r.launch;
    out << "framework: " << prof::frameworkName(p.framework) << "\n";
    if (p.framework == prof::Framework::Verl)
        out << verlVersionLine(r) << "\n";
    out << "backend: " << (p.backend.empty() ? "(none)" : p.backend) << "\n";
    if (!p.driverCommand.empty())
        out << "driver: " << p.driverCommand << "\n";
    out << "\nwrapped workers:\n";
    size_t wrapped = 0;
    for (const auto &w : p.workers) {
        if (!w.wrapped)
            continue;
        ++wrapped;
        out << "  " << w.name << (w.node < 0 ? std::string(" (any node)") : " (node " + std::to_string(w.node) + ")");
        if (!w.roles.empty()) {
            out << " roles:";
            for (const auto &role : w.roles)
                out << " " << role;
        }
        out << "\n    command: " << w.command << "\n";
        for (const auto &[k, v] : w.env)
            out << "    env: " << k << "=" << v << "\n";
        for (const auto &c : w.captureRanges)
            out << "    capture: " << c.label << "\n";
        for (const auto &o : w.outputs)
            out << "    output: " << o << "\n";
        writeHooksText(w, out);
        if (!w.reason.empty())
            out << "    note: " << w.reason << "\n";
    }
    if (wrapped == 0)
        out << "  (none)\n";
    bool header = false;
    for (const auto &w : p.workers) {
        if (w.wrapped)
            continue;
        if (!header)
            out << "\nnot wrapped:\n";
        header = true;
        out << "  " << w.name << ": " << w.reason << "\n";
        for (const auto &[k, v] : w.env)
            out << "    env: " << k << "=" << v << "\n";
        for (const auto &o : w.outputs)
            out << "    output: " << o << "\n";
        writeHooksText(w, out);
    }
    if (!p.collect.empty()) {
        out << "\ncollect from:\n";
        for (const auto &[node, dir] : p.collect)
            out << "  node " << node << ": " << dir << "\n";
    }
    if (!p.notes.empty()) {
        out << "\nnotes:\n";
        for (const auto &n : p.notes)
            out << "  - " << n << "\n";
    }
}

// validate and plan: the shared options (composition, --format text|json, the plan options),
// then composition and analysis without exports. Returns null with `status` set when the
// command is done already (help, usage error, composition error).
std::shared_ptr<const prof::AnalysisResult> analyzeForCommand(CommandSpec spec, const char *formatHelp,
                                                              const Args &args, std::ostream &out, std::ostream &err,
                                                              std::string &format, int &status, ParsedArgs &parsed)
{
    appendComposeOptions(spec);
    spec.options.push_back({"format", "text|json", formatHelp});
    appendPlanOptions(spec);
    prof::AnalysisInput input;
    input.withExports = false;
    if (status = prepare(spec, args, out, err, parsed, input); status >= 0)
        return nullptr;
    if (!formatIs(parsed, {"text", "json"}, format, err)) {
        status = 2;
        return nullptr;
    }
    return prof::analyze(input);
}

std::string joinWords(const std::vector<std::string> &words)
{
    std::string s;
    for (const auto &w : words)
        s += (s.empty() ? "" : ", ") + w;
    return s.empty() ? "(none)" : s;
}

// validate --explain-version: the version, its evidence and what that release accepts.
int explainVersion(const prof::AnalysisResult &r, std::ostream &out, std::ostream &err)
{
    if (r.model.framework != prof::Framework::Verl) {
        err << "error: --explain-version applies to verl configs; this one is "
            << prof::frameworkName(r.model.framework) << "\n";
        return 1;
    }
    const prof::VerlVersionTraits &t = prof::verlVersionTraits(r.model.verl.version);
    out << verlVersionLine(r) << "\n"
        << "  tools: " << joinWords(t.tools) << "\n"
        << "  torch contents: " << joinWords(t.torchContents) << "\n"
        << "  torch tool_config keys: " << joinWords(t.torchKeys) << "\n"
        << "  role profiler keys: " << joinWords(t.roleKeys) << "\n"
        << "  reward_model.profiler: " << (t.rewardModelProfiler ? "yes" : "no (removed in 0.7.1)") << "\n"
        << "  whole-step scope: " << t.wholeStepScope << "\n"
        << "  precision_debugger stages: " << joinWords(t.precisionDebuggerStages) << "\n";
    return 0;
}

} // namespace

int cmdValidate(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec;
    spec.usage = "profstudio-cli validate --config-name NAME [--config-dir DIR]... [--format text|json] [OVERRIDE...]";
    spec.summary = "Check the profiling part of a composed RLinf or verl config: the errors the framework itself "
                   "would raise (its exact words) and the spec's extra checks, each located at FILE:LINE:COL. "
                   "Exit 1 when any diagnostic is an error. For verl it prints the detected release and what "
                   "decided it.";
    spec.epilog = std::string("Example:\n  profstudio-cli validate --config-dir verl/trainer/config --config-name "
                              "ppo_trainer global_profiler.tool=nsys 'global_profiler.steps=[1,2]'") +
                  kSupportedReleases;
    spec.options.push_back({"explain-version", "",
                            "verl: print only the release the rules follow, what in the config decided it, and what "
                            "that release offers (tools, torch contents, profiler keys, stage scope)"});
    std::string format;
    int status = -1;
    ParsedArgs parsed;
    const auto r = analyzeForCommand(spec, "output format (default text: diagnostics on stderr)", args, out, err,
                                     format, status, parsed);
    if (!r)
        return status;
    if (parsed.has("explain-version"))
        return explainVersion(*r, out, err);
    if (format == "json") {
        core::JsonWriter json;
        json.beginObject().key("framework").value(prof::frameworkName(r->model.framework));
        if (r->model.framework == prof::Framework::Verl) {
            json.key("verl_version").value(prof::verlVersionName(r->model.verl.version));
            json.key("verl_version_source")
                .value(r->model.verl.detection.overridden ? "override"
                       : r->model.verl.detection.detected ? "detected"
                                                          : "assumed");
            json.key("verl_version_evidence");
            writeStrings(r->model.verl.detection.why, json);
        }
        json.key("diagnostics");
        writeDiagnosticsJson(r->diagnostics, json);
        json.endObject();
        out << json.str() << "\n";
    } else {
        printDiagnostics(r->diagnostics, err);
        size_t errors = 0, warnings = 0;
        for (const auto &d : r->diagnostics) {
            errors += d.severity == prof::Severity::Error;
            warnings += d.severity == prof::Severity::Warning;
        }
        if (r->model.framework == prof::Framework::Verl)
            out << verlVersionLine(*r) << "\n";
        out << prof::frameworkName(r->model.framework) << ": " << errors << " error(s), " << warnings
            << " warning(s)\n";
    }
    return prof::hasErrors(r->diagnostics) ? 1 : 0;
}

int cmdPlan(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec;
    spec.usage = "profstudio-cli plan --config-name NAME [--config-dir DIR]... [--python PATH] [--format text|json] "
                 "[OVERRIDE...]";
    spec.summary = "For every worker that profiling wraps: its name, node, the argv and the command line exactly "
                   "as the framework renders it, the environment it adds, the capture ranges and the files it "
                   "writes; the workers left unwrapped, with why; the driver line. Diagnostics go to stderr; exit 1 "
                   "when any is an error.";
    spec.epilog = std::string("Example:\n  profstudio-cli plan --config-dir examples/embodiment/config --config-name "
                              "maniskill_ppo_mlp '+cluster.profiling.steps=[3]'") +
                  kSupportedReleases;
    std::string format;
    int status = -1;
    ParsedArgs parsed;
    const auto r = analyzeForCommand(spec, "output format (default text)", args, out, err, format, status, parsed);
    if (!r)
        return status;
    printDiagnostics(r->diagnostics, err);
    if (format == "json") {
        core::JsonWriter json;
        writePlanJson(*r, json);
        out << json.str() << "\n";
    } else {
        writePlanText(*r, out);
    }
    return prof::hasErrors(r->diagnostics) ? 1 : 0;
}

int cmdExport(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec;
    spec.usage = "profstudio-cli export --as yaml|yaml-minimal|overrides|ray-job|migration|collect|ray-digest "
                 "--config-name NAME "
                 "[--config-dir DIR]... [-o FILE] [OVERRIDE...]";
    spec.summary = "Export the composed config: yaml (as Hydra's --cfg job), yaml-minimal (a primary config with "
                   "the defaults list and only the values the overrides changed), overrides (one shell-quoted "
                   "override per line), ray-job (verl: a complete ray job submit line; RLinf: the driver line), "
                   "migration (verl's old profiling schema as overrides of the new one, with a note per key), collect "
                   "(a bash script that copies the reports from the nodes after the run: collect.sh HOST...), "
                   "ray-digest (a Ray job, a Python driver with its `ray job submit` line, that digests the reports "
                   "on every node where they were written: one task per node, pinned with node affinity).";
    spec.options.push_back(
        {"as", "FORMAT", "yaml, yaml-minimal, overrides, ray-job, migration, collect or ray-digest"});
    spec.options.push_back({"output", "FILE", "write to FILE (atomically) instead of stdout", false, 'o'});
    appendComposeOptions(spec);
    appendPlanOptions(spec);
    ParsedArgs parsed;
    prof::AnalysisInput input;
    if (const int st = prepare(spec, args, out, err, parsed, input); st >= 0)
        return st;
    const std::string as = parsed.value("as");
    if (as != "yaml" && as != "yaml-minimal" && as != "overrides" && as != "ray-job" && as != "migration" &&
        as != "collect" && as != "ray-digest") {
        err << "error: --as must be yaml, yaml-minimal, overrides, ray-job, migration, collect or ray-digest"
            << (as.empty() ? "" : ", not '") << as << (as.empty() ? "" : "'") << "\n";
        return 2;
    }
    input.withYamlMinimal = as == "yaml-minimal";
    const auto r = prof::analyze(input);
    std::string text;
    if (as == "yaml") {
        text = r->exports.yaml;
    } else if (as == "yaml-minimal") {
        if (!r->exports.yamlMinimalError.empty()) {
            err << r->exports.yamlMinimalError << "\n";
            return 1;
        }
        text = r->exports.yamlMinimal;
    } else if (as == "overrides") {
        text = r->exports.overrides;
    } else if (as == "ray-job") {
        text = r->exports.rayJob;
    } else if (as == "collect") {
        text = r->exports.collect;
    } else if (as == "ray-digest") {
        text = r->exports.rayDigest;
    } else {
        if (r->model.framework != prof::Framework::Verl || !r->model.verl.legacy) {
            err << "error: migration applies to verl configs in the old profiling schema (trainer.profile_steps); "
                   "this one is not\n";
            return 1;
        }
        text = prof::exportMigration(r->exports.migration);
    }
    if (parsed.has("output")) {
        const std::string problem = core::writeFileAtomically(parsed.value("output"), text);
        if (!problem.empty()) {
            err << "error: " << problem << "\n";
            return 1;
        }
        return 0;
    }
    out << text;
    return 0;
}

} // namespace ps::cli
