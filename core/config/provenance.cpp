#include "core/config/provenance.h"

#include "core/config/keypath.h"

namespace ps::core::config {

const std::vector<ProvenanceStep> *Provenance::find(std::string_view keyPath) const
{
    auto it = m_chains.find(std::string(keyPath));
    if (it == m_chains.end() && keyPath.find('[') != std::string_view::npos)
        it = m_chains.find(joinKeyPath(splitKeyPath(keyPath))); // "lst[1]" is recorded as "lst.1"
    return it == m_chains.end() ? nullptr : &it->second;
}

void Provenance::record(const std::string &keyPath, ProvenanceStep step)
{
    if (m_enabled)
        m_chains[keyPath].push_back(std::move(step));
}

void Provenance::eraseSubtree(std::string_view keyPath)
{
    m_chains.erase(std::string(keyPath));
    eraseBelow(keyPath);
}

void Provenance::eraseBelow(std::string_view keyPath)
{
    if (keyPath.empty()) {
        m_chains.clear();
        return;
    }
    for (auto it = m_chains.begin(); it != m_chains.end();) {
        const std::string &k = it->first;
        bool below =
            k.size() > keyPath.size() && k.compare(0, keyPath.size(), keyPath) == 0 && k[keyPath.size()] == '.';
        if (below)
            it = m_chains.erase(it);
        else
            ++it;
    }
}

} // namespace ps::core::config
