#pragma once
// Upstream's documentation of the verl profiler fields that only some releases have, for the
// Configure panels' tooltips: the comments of verl's config YAMLs and the docstrings of
// verl/utils/profiler/config.py (verl-project/verl 1dda039b), quoted, not paraphrased, so the
// tooltip says what the verl the user runs says.

#include <QString>

namespace ps::views {

// `field` is the key below a profiler block, e.g. "relocate_results", "schedule.active",
// "profile_token_start", "precision_debugger.stages". Empty when upstream documents none.
QString verlFieldDoc(const QString &field);

// "<key path>\n\n<doc>" (or just the key path), the tooltip of a control editing `keyPath`.
QString verlTooltip(const QString &keyPath, const QString &field);

} // namespace ps::views
