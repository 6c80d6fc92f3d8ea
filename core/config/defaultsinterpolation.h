#pragma once
// Hydra 1.3's interpolation in the defaults list: `- actor@actor_rollout_ref.actor:
// ${model_engine}_actor` picks the option from other groups' final choices. Composition records
// every group's choice as it reaches it (KnownChoices, Hydra's Overrides.known_choices); an entry
// whose option is an interpolation is resolved after the rest of its defaults list, against the
// choices known at that point.

#include "core/config/defaultsentry.h"
#include "core/config/envlookup.h"
#include "core/config/sourcemark.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ps::core::config {

class KnownChoices
{
public:
    using Entry = std::pair<std::string, std::optional<std::string>>; // override key, option (nullopt: null)

    // Records the option chosen for `key` ("group" or "group@package"). A second, different
    // choice for the same key is Hydra's "Multiple values for KEY" error, located at `where`.
    void set(const std::string &key, const std::optional<std::string> &option, const SourceMark &where);
    const std::vector<Entry> &entries() const { return m_entries; }
    void clear() { m_entries.clear(); }

private:
    std::vector<Entry> m_entries;
};

// Hydra's is_interpolation() for a defaults entry: the option (or config path) holds "${".
bool isDefaultsInterpolation(const std::string &text);

// Resolves the interpolated option of a group entry ("${model_engine}_actor"), or the path of a
// config entry, as Hydra's resolve_interpolation() does: against a config made of the known
// choices plus `defaults` (the containing defaults list), resolvers such as oc.env included.
// Throws ConfigError with Hydra's message ("Error resolving interpolation '...', possible
// interpolation keys: ...") located at the entry.
std::string resolveDefaultsInterpolation(const DefaultEntry &entry, const KnownChoices &known,
                                         const std::vector<DefaultEntry> &defaults, const EnvLookup &env);

} // namespace ps::core::config
