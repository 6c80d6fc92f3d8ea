#pragma once
// The catalogue of profiling rules. Ids are stable (scripts and the GUI key on them); a rule's
// severity is fixed here so that every diagnostic of one rule has the same severity. `upstream`
// marks rules that reproduce an error the framework raises itself, with its exact wording.

#include "core/profiling/diagnostic.h"

#include <string_view>
#include <vector>

namespace ps::core::profiling {

struct RuleInfo
{
    std::string_view id;
    Severity severity;
    bool upstream; // the framework itself raises this (message quoted exactly)
    std::string_view summary;
};

const std::vector<RuleInfo> &ruleCatalogue();
// nullptr for an unknown id.
const RuleInfo *findRule(std::string_view id);

} // namespace ps::core::profiling
