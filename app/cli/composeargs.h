#pragma once
// The composition arguments every config command takes (../shared/spec/cli.md, "Config
// commands"): --config-dir DIR (repeatable, searched in order, then the built-in presets),
// --config-name NAME, and Hydra OVERRIDE words as positionals. compose and explain use it;
// validate, plan and export reuse it the same way:
//
//   CommandSpec spec{...};
//   appendComposeOptions(spec);
//   ... parse ...
//   ComposeOptions opts;
//   if (!composeOptionsFrom(parsed, parsed.positionals(), opts, err)) return 2;
//   auto result = composeOrReport(opts, err);   // prints located errors and warnings
//   if (!result) return 1;

#include "app/cli/cliargs.h"
#include "core/config/composer.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ps::cli {

// Adds --config-dir and --config-name to `spec` and, when empty, the OVERRIDE positional help.
void appendComposeOptions(CommandSpec &spec);

// Fills `out` from the parsed options and the given override words. Returns false (after a
// usage message on err: exit 2) when --config-name is missing.
bool composeOptionsFrom(const ParsedArgs &args, const std::vector<std::string> &overrides,
                        core::config::ComposeOptions &out, std::ostream &err);

// Composes; on failure prints "FILE:LINE:COL: error: MESSAGE" (or "error: MESSAGE") to err and
// returns nullopt (exit 1). Composition warnings go to err as "warning: ..." (and then to
// options.onWarning, when set).
// With `failure`, the error is also stored there (for a JSON report of it).
std::optional<core::config::ComposeResult> composeOrReport(const core::config::ComposeOptions &options,
                                                           std::ostream &err,
                                                           std::optional<core::config::ConfigError> *failure = nullptr);

// The CLI's rendering of a config error.
void printConfigError(const core::config::ConfigError &error, std::ostream &err);

} // namespace ps::cli
