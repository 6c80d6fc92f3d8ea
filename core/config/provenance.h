#pragma once
// Where every composed value came from. Composition merges layers (config files in defaults-list
// order, then command-line overrides); each layer that sets a key appends one step to that key's
// chain, so the last step is the one that won. Dict nodes get a step for every layer that touched
// them too. Deleting a key (~key) drops the chains of its subtree.

#include "core/config/sourcemark.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps::core::config {

// How one config file entered the composition (one element of the flattened defaults tree).
struct ConfigSource
{
    std::string configPath;    // Hydra's config path: "ppo_trainer", "actor/dp_actor", "profile/default"
    std::string file;          // the file read: a path, or "<builtin>/profile/default.yaml"
    std::string package;       // where it was merged: "actor_rollout_ref.actor"; "" = the root
    std::string defaultsEntry; // the entry as written: "actor@actor_rollout_ref.actor: dp_actor",
                               // "+profile@cluster.profiling=default" for a CLI group override,
                               // "" for the primary config
    SourceMark entryMark;      // where that entry is written (unknown for the primary / the CLI)
    // When the entry's option was an interpolation ("${model_engine}_actor"): that text; the
    // choice it resolved to is the last part of configPath ("actor/dp_actor"). Empty otherwise.
    std::string interpolatedOption;
    int parent = -1; // index (in ComposeResult::sources) of the config whose defaults
                     // list holds the entry; -1 for the primary and CLI additions
};

struct ProvenanceStep
{
    enum class Origin { File, Override };
    Origin origin = Origin::File;
    SourceMark mark;          // File: the value's position in the file; Override: {"<override>",0,0}
    int source = -1;          // File: index into ComposeResult::sources
    std::string overrideText; // Override: the override as given, e.g. "+cluster.profiling.steps=[3]"
};

class Provenance
{
public:
    // The chain of steps for an exact key path ("a.b", list items "lst.0" or "lst[0]"), in merge order;
    // nullptr when the key has no record (it does not exist in the composed config).
    const std::vector<ProvenanceStep> *find(std::string_view keyPath) const;

    void record(const std::string &keyPath, ProvenanceStep step);
    // Drops the chains of keyPath and every key below it.
    void eraseSubtree(std::string_view keyPath);
    // Drops the chains strictly below keyPath (its children), keeping keyPath's own chain.
    void eraseBelow(std::string_view keyPath);
    size_t size() const { return m_chains.size(); }
    // A disabled provenance records nothing (find() always answers nullptr).
    void setEnabled(bool enabled) { m_enabled = enabled; }
    bool isEnabled() const { return m_enabled; }
    const std::unordered_map<std::string, std::vector<ProvenanceStep>> &chains() const { return m_chains; }

private:
    std::unordered_map<std::string, std::vector<ProvenanceStep>> m_chains;
    bool m_enabled = true;
};

} // namespace ps::core::config
