#include "app/cli/composeargs.h"

#include <exception>

namespace ps::cli {

void appendComposeOptions(CommandSpec &spec)
{
    spec.options.push_back({"config-dir", "DIR",
                            "a config root; repeatable, searched in order (default: the built-in presets only)", true});
    spec.options.push_back({"config-name", "NAME", "the primary config, with or without .yaml"});
    if (spec.positionalHelp.empty())
        spec.positionalHelp = "OVERRIDE  Hydra override: a.b=1  +a.c=2  ++a.b=3  ~a.b  group=option  "
                              "group@pkg=option  +group@pkg=option  ~group  'x=[1,2]'  'x={a: 1}'";
}

bool composeOptionsFrom(const ParsedArgs &args, const std::vector<std::string> &overrides,
                        core::config::ComposeOptions &out, std::ostream &err)
{
    if (!args.has("config-name")) {
        err << "error: --config-name is required (see --help)\n";
        return false;
    }
    out.configDirs = args.values("config-dir");
    out.configName = args.value("config-name");
    out.overrides = overrides;
    // One composition per command: a cache of parsed files would only cost a copy of each.
    out.reuseParsedFiles = false;
    return true;
}

void printConfigError(const core::config::ConfigError &error, std::ostream &err)
{
    err << error.format() << "\n";
}

std::optional<core::config::ComposeResult> composeOrReport(const core::config::ComposeOptions &options,
                                                           std::ostream &err,
                                                           std::optional<core::config::ConfigError> *failure)
{
    // Warnings are printed as they arise: those met before a failure are shown too, as Hydra does.
    // A caller's own onWarning still hears each one, after it is printed.
    core::config::ComposeOptions withWarnings = options;
    withWarnings.onWarning = [&err, callerHears = options.onWarning](const std::string &w) {
        err << "warning: " << w << "\n";
        if (callerHears)
            callerHears(w);
    };
    try {
        return core::config::compose(withWarnings);
    } catch (const core::config::ConfigError &e) {
        printConfigError(e, err);
        if (failure)
            failure->emplace(e);
        return std::nullopt;
    } catch (const std::exception &e) {
        // Not expected from any input; still an error message and exit 1 rather than an abort.
        err << "error: internal error while composing: " << e.what() << "\n";
        return std::nullopt;
    }
}

} // namespace ps::cli
