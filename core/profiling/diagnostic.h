#pragma once
// One finding about a profiling config. Every diagnostic is a value: severity, the stable rule
// id it comes from (rulecatalogue.h), the message, the key path it is about, and where the
// offending value was written (file:line:col from composition provenance; "<override>" with
// line 0 for a command-line override; empty when the value was never written, e.g. a missing
// key).

#include <string>
#include <vector>

namespace ps::core::profiling {

enum class Severity { Error, Warning, Info };

// "error", "warning", "info": the words of the CLI's JSON and text output.
const char *severityName(Severity severity);

struct Diagnostic
{
    Severity severity = Severity::Error;
    std::string rule;    // stable id, e.g. "rlinf.steps-multi-stop"
    std::string message; // upstream's exact wording where the framework raises it itself
    std::string key;     // dotted key path, e.g. "cluster.profiling.steps"
    std::string file;
    int line = 0;
    int column = 0;

    // "FILE:LINE:COL: error: MESSAGE [rule]" when a location is known, "error: MESSAGE [rule]"
    // otherwise (../shared/spec/cli.md).
    std::string format() const;
};

using Diagnostics = std::vector<Diagnostic>;

bool hasErrors(const Diagnostics &diagnostics);

} // namespace ps::core::profiling
