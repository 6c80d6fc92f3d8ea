#pragma once
// Atomic writes of user files: the content goes to a temporary file in the same directory, is
// flushed, and is renamed over the target, so a crash or a full disk never leaves a half-written
// file where the user's file was.

#include <cstdint>
#include <string>
#include <string_view>

namespace ps::core {

// Writes `content` to `path` atomically. Returns an empty string on success, otherwise a
// human-readable reason ("cannot create /x/y.tmp: Permission denied").
std::string writeFileAtomically(const std::string &path, std::string_view content);

// Reads a whole regular file of at most `maxBytes`. Returns false and fills `error` when it cannot
// be read, is not a regular file (a FIFO would block the caller forever, a device never end), or
// is larger.
inline constexpr uint64_t kMaxWholeFileBytes = uint64_t(256) << 20;
bool readWholeFile(const std::string &path, std::string &content, std::string &error,
                   uint64_t maxBytes = kMaxWholeFileBytes);

} // namespace ps::core
