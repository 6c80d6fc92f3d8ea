// libFuzzer target: arbitrary cache bodies behind a valid header and key, decoded as a
// memory-mapped cache would be, then used as a store.

#include "core/trace/persist/cachecodec.h"
#include "fuzzexercise.h"

#include <cstring>
#include <memory>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ps::core::trace;
    // The key must match for decoding to go past the header: read it from the body itself.
    CacheKey key;
    if (size >= 8) {
        uint64_t n;
        std::memcpy(&n, data, 8);
        const size_t padded = size_t(n) + (8 - n % 8) % 8;
        if (n < size && 8 + padded + 16 <= size) {
            key.path.assign(reinterpret_cast<const char *>(data) + 8, size_t(n));
            std::memcpy(&key.size, data + 8 + padded, 8);
            std::memcpy(&key.mtimeNs, data + 8 + padded + 8, 8);
        }
    }
    const std::string sealed = sealCacheBody(std::string_view(reinterpret_cast<const char *>(data), size));
    // Aligned copy, as a mapping would be.
    auto buf = std::shared_ptr<uint64_t[]>(new uint64_t[sealed.size() / 8 + 1]);
    std::memcpy(buf.get(), sealed.data(), sealed.size());
    Report report;
    std::string reason;
    if (decodeCache({reinterpret_cast<const char *>(buf.get()), sealed.size()}, key, buf, report, reason)) {
        auto ptr = std::make_shared<const Report>(std::move(report));
        exerciseStore(ptr);
    }
    return 0;
}
