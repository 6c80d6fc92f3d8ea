#include "core/profiling/configreader.h"

#include "core/config/keypath.h"
#include "core/profiling/rulecatalogue.h"

#include <cassert>

namespace ps::core::profiling {

using config::Node;

ConfigReader::ConfigReader(const Node &raw, const Node &resolved, const config::Provenance *provenance)
    : m_raw(raw), m_resolved(resolved), m_provenance(provenance)
{
}

const Node *ConfigReader::get(std::string_view path) const
{
    return config::findPath(m_resolved, path);
}

const Node *ConfigReader::raw(std::string_view path) const
{
    return config::findPath(m_raw, path);
}

std::string ConfigReader::string(std::string_view path, const std::string &fallback) const
{
    const Node *n = get(path);
    return n && n->isStringLike() ? n->asString() : fallback;
}

bool ConfigReader::boolean(std::string_view path, bool fallback) const
{
    const Node *n = get(path);
    return n && n->kind() == Node::Kind::Bool ? n->asBool() : fallback;
}

long long ConfigReader::integer(std::string_view path, long long fallback) const
{
    const Node *n = get(path);
    return n && n->kind() == Node::Kind::Int ? n->asInt() : fallback;
}

config::SourceMark ConfigReader::where(std::string_view path) const
{
    config::SourceMark m = markOf(path);
    if (m.file != "<override>" || !m_provenance)
        return m;
    // Name the override that set the value: "<override +cluster.profiling.steps=[3,10]>".
    for (std::string p(path);;) {
        if (const auto *chain = m_provenance->find(p); chain && !chain->empty()) {
            const config::ProvenanceStep &last = chain->back();
            if (last.origin == config::ProvenanceStep::Origin::Override && !last.overrideText.empty())
                m.file = "<override " + last.overrideText + ">";
            return m;
        }
        const auto dot = p.rfind('.');
        if (dot == std::string::npos)
            return m;
        p.resize(dot);
    }
}

config::SourceMark ConfigReader::markOf(std::string_view path) const
{
    std::string p(path);
    while (true) {
        // The node's own mark points at the value token (provenance marks a key's position);
        // provenance covers nodes without a mark.
        if (const Node *n = config::findPath(m_raw, p); n && n->mark.isKnown())
            return n->mark;
        if (m_provenance) {
            if (const auto *chain = m_provenance->find(p); chain && !chain->empty())
                return chain->back().mark;
        }
        const auto dot = p.rfind('.');
        if (dot == std::string::npos)
            return {};
        p.resize(dot);
    }
}

void ConfigReader::report(Diagnostics &out, std::string_view rule, std::string message, const std::string &path) const
{
    const RuleInfo *info = findRule(rule);
    assert(info && "every reported rule is in the catalogue");
    Diagnostic d;
    d.severity = info ? info->severity : Severity::Error;
    d.rule = std::string(rule);
    d.message = std::move(message);
    d.key = path;
    const config::SourceMark m = where(path);
    d.file = m.file;
    d.line = m.line;
    d.column = m.column;
    out.push_back(std::move(d));
}

} // namespace ps::core::profiling
