#pragma once
// The built-in presets a session can start from: RLinf's profile/default and the verl recipes
// (resources/presets, compiled into the config engine). A preset is applied as a group override
// that becomes part of the session's baseline, so "diff against the preset" shows the user's
// edits on top of it.

#include "core/config/composer.h"

#include <QString>

#include <string>
#include <vector>

namespace ps::views {

struct Recipe
{
    QString id;          // "rlinf/profile-default", "verl/nsys"
    QString label;       // shown in the preset menu
    QString framework;   // "rlinf" | "verl"
    QString description; // tooltip
    std::string group;   // config group of the preset file ("profile", "verl")
    std::string option;  // "default", "nsys"
    std::string package; // "cluster.profiling"; "" when the file's header places it
};

const std::vector<Recipe> &builtinRecipes();
const Recipe *findRecipe(const QString &id);

// The overrides that apply `recipe` to a config composed as `base` (null when it did not
// compose): `+group@pkg=option`, or `group@pkg=option` when the defaults list already has the group.
std::vector<std::string> recipeOverrides(const Recipe &recipe, const core::config::ComposeResult *base);

} // namespace ps::views
