// compose and explain (../shared/spec/cli.md, "Config commands").

#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/composeargs.h"
#include "core/common/jsonwriter.h"
#include "core/config/interpolation.h"
#include "core/config/keypath.h"
#include "core/config/yamlemitter.h"

#include <optional>

namespace ps::cli {

namespace cfg = ps::core::config;

namespace {

// Parses with `spec`; returns the exit status to end with (help shown: 0, bad usage: 2), or
// nothing when the command should run.
std::optional<int> parseOrExit(const CommandSpec &spec, const Args &args, ParsedArgs &parsed, std::ostream &out,
                               std::ostream &err)
{
    ParseStatus st = ArgParser(spec).parse(args, parsed, out, err);
    if (st == ParseStatus::HelpShown)
        return 0;
    if (st == ParseStatus::UsageError)
        return 2;
    return std::nullopt;
}

// "pkg://a.b is DIR (found in PYTHONPATH ENTRY)".
std::string noteText(const cfg::SearchPathNote &note)
{
    return "pkg://" + note.package + " is " + note.dir + " (found in " + note.via + " " + note.entry + ")";
}

// compose --verbose: the search path as Hydra lists it, then how each pkg:// entry was found.
void printSearchPath(const cfg::ComposeResult &result, std::ostream &err)
{
    err << "Config search path:\n";
    for (const std::string &line : result.hydraSearchPath)
        err << "\t" << line << "\n";
    for (const cfg::SearchPathNote &note : result.searchPathNotes)
        err << noteText(note) << "\n";
}

} // namespace

int cmdCompose(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec;
    spec.usage = "profstudio-cli compose --config-name NAME [--config-dir DIR]... [--resolve] [--format yaml|json] "
                 "[OVERRIDE...]";
    spec.summary = "Compose a Hydra config and print it as Hydra's `--cfg job` does (the hydra: node removed), "
                   "byte for byte.";
    appendComposeOptions(spec);
    spec.options.push_back({"verbose", "",
                            "print the config search path on stderr, as Hydra lists it, and where "
                            "each pkg:// entry was found"});
    spec.options.push_back({"resolve", "",
                            "resolve interpolations; values that cannot be resolved are printed as "
                            "written and reported on stderr"});
    spec.options.push_back({"format", "yaml|json", "output format (default yaml)"});
    spec.epilog = "Example:\n  profstudio-cli compose --config-dir verl/trainer/config --config-name ppo_trainer "
                  "global_profiler.tool=nsys 'global_profiler.steps=[1,2]'";
    ParsedArgs parsed;
    if (auto status = parseOrExit(spec, args, parsed, out, err))
        return *status;
    std::string format = parsed.value("format", "yaml");
    if (format != "yaml" && format != "json") {
        err << "error: --format must be yaml or json, not '" << format << "'\n";
        return 2;
    }
    cfg::ComposeOptions options;
    if (!composeOptionsFrom(parsed, parsed.positionals(), options, err))
        return 2;
    options.recordProvenance = false; // printed as a tree only
    auto result = composeOrReport(options, err);
    if (!result)
        return 1;
    if (parsed.has("verbose"))
        printSearchPath(*result, err);
    const cfg::Node *tree = &result->config;
    cfg::Node resolved;
    if (parsed.has("resolve")) {
        std::vector<cfg::ConfigError> problems;
        resolved = cfg::resolveAll(result->config, &problems, options.env);
        for (const cfg::ConfigError &p : problems) {
            std::string located = p.where().isKnown() ? p.where().toString() + ": " : std::string();
            err << located << "warning: " << p.message() << "\n";
        }
        tree = &resolved;
    }
    if (format == "json") {
        core::JsonWriter json;
        cfg::writeJson(*tree, json);
        out << json.str() << "\n";
    } else {
        out << cfg::toYaml(*tree);
    }
    return 0;
}

int cmdExplain(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec;
    spec.usage = "profstudio-cli explain --config-name NAME [--config-dir DIR]... KEY [OVERRIDE...]";
    spec.summary = "Show where one composed value came from: every file:line (or override) that set it, in merge "
                   "order, the last one winning, and the defaults-list entry that brought each file in.";
    spec.positionalHelp = "KEY       dotted key path, e.g. actor_rollout_ref.actor.optim.lr\n"
                          "  OVERRIDE  Hydra override, as for compose";
    appendComposeOptions(spec);
    ParsedArgs parsed;
    if (auto status = parseOrExit(spec, args, parsed, out, err))
        return *status;
    if (parsed.positionals().empty()) {
        err << "error: explain needs a KEY (see --help)\n";
        return 2;
    }
    const std::string key = parsed.positionals().front();
    std::vector<std::string> overrides(parsed.positionals().begin() + 1, parsed.positionals().end());
    cfg::ComposeOptions options;
    if (!composeOptionsFrom(parsed, overrides, options, err))
        return 2;
    auto result = composeOrReport(options, err);
    if (!result)
        return 1;
    std::string text = cfg::explainKey(*result, key);
    if (text.empty()) {
        err << "error: key '" << key << "' is not in the composed config\n";
        return 1;
    }
    out << text;
    // A value from a pkg:// source: say where that package was found.
    for (const cfg::SearchPathNote &note : result->searchPathNotes)
        if (text.find(note.dir + "/") != std::string::npos)
            out << "search path: " << noteText(note) << "\n";
    return 0;
}

} // namespace ps::cli
