#include "core/trace/formats/bytesource.h"

#include "core/trace/persist/mappedfile.h"

#include <unistd.h>

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace ps::core::trace::formats {

struct ByteSource::Inflater
{
    z_stream z{};
    std::vector<unsigned char> in = std::vector<unsigned char>(size_t(1) << 20);
    bool ended = false; // the current gzip member is complete
    ~Inflater() { inflateEnd(&z); }
};

ByteSource::ByteSource() = default;

ByteSource::~ByteSource()
{
    if (m_file)
        std::fclose(m_file);
}

std::string ByteSource::open(const std::string &path)
{
    m_path = path;
    std::string why;
    const int fd = openRegularFile(path, why); // a FIFO would block a plain open forever
    if (fd < 0)
        return path + ": cannot open: " + why;
    m_file = ::fdopen(fd, "rb");
    if (!m_file) {
        ::close(fd);
        return path + ": cannot open: " + std::strerror(errno);
    }
    std::fseek(m_file, 0, SEEK_END);
    const long size = std::ftell(m_file);
    std::fseek(m_file, 0, SEEK_SET);
    m_size = size > 0 ? uint64_t(size) : 0;
    unsigned char magic[2] = {0, 0};
    const size_t got = std::fread(magic, 1, 2, m_file);
    std::fseek(m_file, 0, SEEK_SET);
    m_gzip = got == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    if (m_gzip) {
        m_z = std::make_unique<Inflater>();
        // 16 + MAX_WBITS: expect a gzip header and trailer.
        if (inflateInit2(&m_z->z, 16 + MAX_WBITS) != Z_OK)
            return path + ": cannot initialise zlib";
    }
    return {};
}

size_t ByteSource::readRaw(char *out, size_t n)
{
    const size_t got = std::fread(out, 1, n, m_file);
    if (got < n && std::ferror(m_file))
        m_error = m_path + ": read error: " + std::strerror(errno);
    m_consumed += got;
    return got;
}

size_t ByteSource::read(char *out, size_t n)
{
    if (!m_file || !m_error.empty() || n == 0)
        return 0;
    if (!m_gzip)
        return readRaw(out, n);
    z_stream &z = m_z->z;
    z.next_out = reinterpret_cast<Bytef *>(out);
    z.avail_out = uInt(n);
    while (z.avail_out > 0) {
        if (z.avail_in == 0) {
            if (m_eof)
                break;
            const size_t got = readRaw(reinterpret_cast<char *>(m_z->in.data()), m_z->in.size());
            if (got == 0) {
                m_eof = true;
                if (!m_z->ended && m_error.empty())
                    m_error = m_path + ": truncated gzip stream (the file ends inside the compressed data)";
                break;
            }
            z.next_in = m_z->in.data();
            z.avail_in = uInt(got);
        }
        if (m_z->ended) {
            // Another gzip member follows (concatenated .gz files are valid gzip).
            if (inflateReset(&z) != Z_OK) {
                m_error = m_path + ": zlib reset failed";
                break;
            }
            m_z->ended = false;
        }
        const int rc = inflate(&z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            m_z->ended = true;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            m_error = m_path + ": corrupt gzip data (" + (z.msg ? z.msg : "zlib error " + std::to_string(rc)) + ")";
            break;
        }
    }
    return n - z.avail_out;
}

double ByteSource::progress() const
{
    return m_size ? std::min(1.0, double(m_consumed) / double(m_size)) : 1.0;
}

std::string readAllBounded(ByteSource &src, uint64_t bound, size_t padding, std::string &out, size_t &size,
                           bool &overBound)
{
    constexpr size_t kChunk = 1 << 16;
    size = 0;
    overBound = false;
    for (;;) {
        out.resize(size + kChunk + padding); // grows geometrically, zero-filled
        const size_t n = src.read(out.data() + size, kChunk);
        if (n == 0)
            break;
        if (size + n > bound) {
            out = std::string();
            size = 0;
            overBound = true;
            return {};
        }
        size += n;
    }
    out.resize(size + padding);
    std::fill(out.begin() + std::ptrdiff_t(size), out.end(), '\0');
    return src.error();
}

} // namespace ps::core::trace::formats
