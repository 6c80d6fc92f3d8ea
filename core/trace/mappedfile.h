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

// Maps a whole file read-only; the descriptor is closed at once (the mapping stays valid). On
// failure `error` holds strerror of the failing call (empty for an empty file).
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
