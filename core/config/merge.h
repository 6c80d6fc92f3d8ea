#pragma once
// OmegaConf's merge (DictConfig.merge_with) with provenance: dicts merge deeply (an existing key
// keeps its position, new keys are appended), lists and scalars replace, a "???" in the incoming
// layer never clobbers a value, a dict replaces a scalar and a scalar (or null) replaces a dict.
// Every node the layer sets or touches gets one provenance step.

#include "core/config/node.h"
#include "core/config/provenance.h"

#include <stdexcept>
#include <string>

namespace ps::core::config {

// Thrown in struct mode (command-line overrides without '+') when a key does not exist; the
// composer turns it into Hydra's "Could not override" message.
struct StructKeyError : std::runtime_error
{
    explicit StructKeyError(const std::string &keyPath) : std::runtime_error(keyPath), keyPath(keyPath) {}
    std::string keyPath;
};

class Merger
{
public:
    // `step` is the template of every recorded step; its mark is replaced by each node's own mark
    // (or kept when `useNodeMarks` is false, as for command-line values).
    Merger(Provenance &provenance, ProvenanceStep step, bool useNodeMarks)
        : m_prov(provenance), m_step(std::move(step)), m_useNodeMarks(useNodeMarks)
    {
    }

    // Merges dict `src` into dict `dest`; `path` is dest's key path ("" for the root).
    // With `structMode`, a key absent from dest throws StructKeyError.
    void mergeDict(Node &dest, const Node &src, const std::string &path, bool structMode = false);
    // Puts `value` at dest[key] (replacing), recording the whole subtree.
    void assign(Node &parent, const std::string &key, const Node &value, const std::string &path);
    void assignItem(Node &list, size_t index, const Node &value, const std::string &path);
    void recordSubtree(const Node &n, const std::string &path);
    void recordOne(const Node &n, const std::string &path);

private:
    // assign() for the key at index i of dict `src` (of any key kind).
    void assignKeyOf(Node &parent, const Node &src, size_t i, const Node &value, const std::string &path);
    void forgetReplaced(const Node *old, const std::string &path);

    Provenance &m_prov;
    ProvenanceStep m_step;
    bool m_useNodeMarks;
};

std::string childPath(const std::string &parent, const std::string &key);

} // namespace ps::core::config
