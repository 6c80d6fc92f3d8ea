#pragma once
// Read access to one composed config for the rule and model code: values come from the
// resolved tree (interpolations such as ${oc.select:global_profiler.tool,null} evaluated, as
// the frameworks see them), locations from provenance (the file:line:col that last set the key,
// falling back to the nearest written ancestor). Diagnostics are made here so that every rule
// reports the same way.

#include "core/config/node.h"
#include "core/config/provenance.h"
#include "core/config/sourcemark.h"
#include "core/profiling/diagnostic.h"

#include <string>
#include <string_view>

namespace ps::core::profiling {

class ConfigReader
{
public:
    // `raw` is the composed tree with interpolations kept; `resolved` the same tree resolved.
    // `provenance` may be null (a tree that did not come from the composer). All must outlive
    // the reader.
    ConfigReader(const config::Node &raw, const config::Node &resolved, const config::Provenance *provenance);

    // The resolved value at a dotted path, or nullptr when absent.
    const config::Node *get(std::string_view path) const;
    // The value as written (an interpolation stays an interpolation).
    const config::Node *raw(std::string_view path) const;
    bool has(std::string_view path) const { return get(path) != nullptr; }
    // The whole tree as written (for schema questions such as which verl it is).
    const config::Node &rawRoot() const { return m_raw; }

    // Typed reads with a fallback for absent, null or wrongly typed values.
    std::string string(std::string_view path, const std::string &fallback = {}) const;
    bool boolean(std::string_view path, bool fallback) const;
    long long integer(std::string_view path, long long fallback) const;

    // Where the value at `path` was set; the nearest ancestor's mark for an absent key. A value
    // set on the command line is located at "<override TEXT>" (line 0).
    config::SourceMark where(std::string_view path) const;

    // Appends a diagnostic of `rule` (severity from the catalogue) located at `path`.
    void report(Diagnostics &out, std::string_view rule, std::string message, const std::string &path) const;

private:
    config::SourceMark markOf(std::string_view path) const;

    const config::Node &m_raw;
    const config::Node &m_resolved;
    const config::Provenance *m_provenance;
};

} // namespace ps::core::profiling
