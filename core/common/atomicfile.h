#pragma once
// Atomic writes of user files: the content goes to a temporary file in the same directory, is
// flushed, and is renamed over the target, so a crash or a full disk never leaves a half-written
// file where the user's file was.

#include <string>
#include <string_view>

namespace ps::core {

// Writes `content` to `path` atomically. Returns an empty string on success, otherwise a
// human-readable reason ("cannot create /x/y.tmp: Permission denied").
std::string writeFileAtomically(const std::string &path, std::string_view content);

// Reads a whole file. Returns false and fills `error` when it cannot be read.
bool readWholeFile(const std::string &path, std::string &content, std::string &error);

} // namespace ps::core
