#pragma once
// Binary layout of the per-report cache (internal to core/trace).
//
//   header (64 bytes): magic "PSTRACE\x01", format version, header checksum, body size,
//                      body checksum
//   body: a sequence of arrays, each [uint64 count][data padded to 8 bytes], in a fixed order
//         (key, meta, names, processes, threads, launch configs, scopes, short names, collectives,
//         process groups, tracks: each its kind, class, key, label and flags, then its columns).
// Column arrays are 8-byte aligned in the file, so a mapped file is used in place.

#include "core/trace/store/report.h"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace ps::core::trace {

struct CacheKey
{
    std::string path; // absolute
    uint64_t size = 0;
    int64_t mtimeNs = 0;
};

uint64_t cacheHash(const void *data, size_t size);

std::string encodeCache(const Report &report, const CacheKey &key);

// Receives an image piece by piece, in order.
using CacheSink = std::function<void(std::string_view piece)>;
// The bytes encodeCache() returns, given to `sink` in pieces without ever being held whole (the
// events are read three times: to size, to hash, to write). `onSize` learns the image's size
// before the first piece. Returns the image's size.
uint64_t streamCache(const Report &report, const CacheKey &key, const std::function<void(uint64_t)> &onSize,
                     const CacheSink &sink);

// A cache file made of `body` behind a valid header (checksums computed). For the fuzzer, which
// must get past the checksums to exercise the structural checks.
std::string sealCacheBody(std::string_view body);

inline constexpr size_t kCacheHeaderSize = 64;

// Checks the header at the start of `bytes` alone (magic, header checksum, format version) and
// that it states a body of imageSize - kCacheHeaderSize bytes: a digest checks this from the first
// bytes of its events before it inflates the rest. False with a reason as readCacheKey gives.
bool checkCacheHeader(std::span<const char> bytes, uint64_t imageSize, std::string &reason);

// The key a cache file was written for, read without decoding the rest (the header is checked:
// magic, header checksum, format version, size). False with a reason ("corrupt: ...", "stale:
// cache format N") when this build cannot use the file.
bool readCacheKey(std::span<const char> bytes, CacheKey &key, std::string &reason);

// Fills `report` (meta, identity from the path, store viewing `bytes`) or returns false with a
// reason ("stale: ...", "corrupt: ..."). `owner` keeps `bytes` alive for the store's lifetime.
bool decodeCache(std::span<const char> bytes, const CacheKey &key, std::shared_ptr<const void> owner, Report &report,
                 std::string &reason);

} // namespace ps::core::trace
