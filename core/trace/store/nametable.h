#pragma once
// Interned strings of one report: every event name, thread name, domain and category is stored
// once and referred to by a NameId. The table is a blob of characters plus an offsets array, so
// it can live in owned memory or in a memory-mapped cache file alike.

#include "core/trace/store/tracetypes.h"

#include <span>
#include <string_view>

namespace ps::core::trace {

class NameTable
{
public:
    NameTable() = default;
    // `offsets` has size()+1 entries; name i is chars[offsets[i], offsets[i+1]).
    NameTable(std::span<const uint32_t> offsets, std::span<const char> chars) : m_offsets(offsets), m_chars(chars) {}

    size_t size() const { return m_offsets.empty() ? 0 : m_offsets.size() - 1; }
    // Out-of-range ids (a damaged cache, a bad reader) yield "" rather than undefined behaviour.
    std::string_view operator[](NameId id) const
    {
        if (id + size_t(1) >= m_offsets.size())
            return {};
        const uint32_t b = m_offsets[id], e = m_offsets[id + 1];
        if (b > e || e > m_chars.size())
            return {};
        return {m_chars.data() + b, e - b};
    }
    std::span<const uint32_t> offsets() const { return m_offsets; }
    std::span<const char> chars() const { return m_chars; }

private:
    std::span<const uint32_t> m_offsets;
    std::span<const char> m_chars;
};

} // namespace ps::core::trace
