#include "core/trace/persist/zstdcodec.h"

#include "core/common/memorybudget.h"

#include <zstd.h>

namespace ps::core::trace {

std::string zstdCompress(std::string_view bytes, int level)
{
    std::string out(ZSTD_compressBound(bytes.size()), '\0');
    const size_t n = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), level);
    out.resize(ZSTD_isError(n) ? 0 : n);
    return out;
}

std::optional<std::string> zstdDecompress(std::string_view frame, uint64_t rawSize, std::string &error,
                                          uint64_t maxRatio)
{
    const uint64_t stated = ZSTD_getFrameContentSize(frame.data(), frame.size());
    if (stated != rawSize || rawSize > frame.size() * maxRatio + 4096) {
        error = "the compressed size and stated size disagree";
        return std::nullopt;
    }
    const MemoryBudget::Lease lease = MemoryBudget::inflation().lease(rawSize); // memorybudget.h
    std::string out(rawSize, '\0');
    const size_t n = ZSTD_decompress(out.data(), out.size(), frame.data(), frame.size());
    if (ZSTD_isError(n) || n != rawSize) {
        error = std::string("it does not decompress (") + (ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short") + ")";
        return std::nullopt;
    }
    return out;
}

} // namespace ps::core::trace
