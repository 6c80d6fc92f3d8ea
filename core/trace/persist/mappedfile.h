#pragma once
// Whole files mapped read-only (the report cache, digests) and a file's size and mtime (the keys
// of caches and exports). Internal to core/trace.

#include <cstddef>
#include <cstdint>
#include <string>

namespace ps::core::trace {

struct Mapping
{
    void *addr = nullptr;
    size_t size = 0;
    Mapping() = default;
    Mapping(const Mapping &) = delete;
    Mapping &operator=(const Mapping &) = delete;
    ~Mapping();
    const char *data() const { return static_cast<const char *>(addr); }
};

enum class MapStatus { Mapped, CannotOpen, Empty, CannotMap };

// "a FIFO", "a socket", "a directory", ... for a stat mode that is not a regular file's.
const char *fileTypeName(unsigned mode);

// A descriptor of `path` opened for reading, only when it is a regular file: opened with
// O_NONBLOCK, so that a FIFO, socket or device given as a report cannot block the open forever,
// checked with fstat, then made blocking again. -1 and the reason in `error` otherwise
// ("not a regular file (a FIFO)", or strerror).
int openRegularFile(const std::string &path, std::string &error);

// Maps a whole file read-only (a regular file only: openRegularFile); the descriptor is closed at once (the mapping
// stays valid). On failure `error` holds strerror of the failing call (empty for an empty file).
MapStatus mapFile(const std::string &path, Mapping &map, std::string &error);

// Size in bytes and modification time in ns since the epoch; all zero (exists = false) when the
// file cannot be stat'ed.
struct FileStamp
{
    uint64_t size = 0;
    int64_t mtimeNs = 0;
    bool exists = false;
};
FileStamp fileStamp(const std::string &path);

} // namespace ps::core::trace
