#pragma once
// Sequential bytes of a file, plain or gzip-compressed (detected by the magic bytes, not the
// name), read in blocks so that a trace of any size needs only a block of memory.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace ps::core::trace::formats {

class ByteSource
{
public:
    ByteSource();
    ~ByteSource();
    ByteSource(const ByteSource &) = delete;
    ByteSource &operator=(const ByteSource &) = delete;

    // Returns "" or "PATH: reason".
    std::string open(const std::string &path);
    bool compressed() const { return m_gzip; }
    // Reads up to `n` bytes into `out`; returns the count, 0 at the end. On failure returns 0
    // and sets error().
    size_t read(char *out, size_t n);
    const std::string &error() const { return m_error; }
    // Fraction of the file consumed so far (compressed bytes for gzip), 0..1.
    double progress() const;
    uint64_t fileSize() const { return m_size; }

private:
    size_t readRaw(char *out, size_t n);

    struct Inflater;
    std::string m_path;
    std::FILE *m_file = nullptr;
    uint64_t m_size = 0;
    uint64_t m_consumed = 0;
    bool m_gzip = false;
    bool m_eof = false;
    std::unique_ptr<Inflater> m_z;
    std::string m_error;
};

// The rest of `src` (decompressed) into `out`, followed by `padding` zero bytes that `size` leaves
// out (simdjson parses in place with them). Stops once more than `bound` bytes came, with
// `overBound` set and `out` emptied: a gzip bomb is refused before it is all inflated. Returns ""
// or the source's error. The caller holds the inflation budget's lease for `bound`.
std::string readAllBounded(ByteSource &src, uint64_t bound, size_t padding, std::string &out, size_t &size,
                           bool &overBound);

} // namespace ps::core::trace::formats
