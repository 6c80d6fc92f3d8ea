#include "core/profiling/diagnostic.h"

namespace ps::core::profiling {

const char *severityName(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Info:
        return "info";
    }
    return "error";
}

std::string Diagnostic::format() const
{
    std::string out;
    if (!file.empty()) {
        out += file;
        if (line > 0) {
            out += ':' + std::to_string(line);
            if (column > 0)
                out += ':' + std::to_string(column);
        }
        out += ": ";
    }
    out += severityName(severity);
    out += ": " + message + " [" + rule + "]";
    return out;
}

bool hasErrors(const Diagnostics &diagnostics)
{
    for (const auto &d : diagnostics)
        if (d.severity == Severity::Error)
            return true;
    return false;
}

} // namespace ps::core::profiling
