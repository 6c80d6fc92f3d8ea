#pragma once
// Fixed-size little-endian fields in a byte string, for the digest's binary sections (this
// machine's order is little-endian, as the trace cache also assumes).

#include <cstring>
#include <string>
#include <string_view>

namespace ps::core {

template <typename T> void appendField(std::string &out, T v)
{
    out.append(reinterpret_cast<const char *>(&v), sizeof v);
}

// Reads a T at `pos` and advances it; false (and nothing read) when the bytes end first.
template <typename T> bool takeField(std::string_view bytes, size_t &pos, T &v)
{
    if (pos > bytes.size() || bytes.size() - pos < sizeof v)
        return false;
    std::memcpy(&v, bytes.data() + pos, sizeof v);
    pos += sizeof v;
    return true;
}

} // namespace ps::core
