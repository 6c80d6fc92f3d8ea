#pragma once
// What a folder holds, said when it holds no reports: "3 YAML files, 1 PNG file, no reports".
// A user who opened the wrong folder (the config folder, the run's parent) learns what they
// opened instead of seeing nothing happen.

#include "core/common/canceltoken.h"

#include <QString>

namespace ps::views {

// The files under `path` (recursively, at most `limit` looked at) counted by extension, most
// common first, then "no reports"; "an empty folder" when it holds no files. "" once `cancel` is
// set (the walk stops).
QString folderSummary(const QString &path, const core::CancelToken *cancel = nullptr, int limit = 100000);

} // namespace ps::views
