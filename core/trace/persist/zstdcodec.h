#pragma once
// One-shot zstd frames for the digest's small sections (digest.cpp streams the events itself).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ps::core::trace {

// A frame that records its content size.
std::string zstdCompress(std::string_view bytes, int level = 3);
// The frame's content, which must be `rawSize` bytes and at most `maxRatio` times the frame, so
// that a hostile size cannot make it allocate more than a bounded multiple of the file; nullopt
// with `error` otherwise.
std::optional<std::string> zstdDecompress(std::string_view frame, uint64_t rawSize, std::string &error,
                                          uint64_t maxRatio = 1024);

} // namespace ps::core::trace
