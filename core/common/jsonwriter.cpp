#include "core/common/jsonwriter.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ps::core {

JsonWriter::JsonWriter(int indent) : m_indent(indent)
{
}

void JsonWriter::newline()
{
    if (m_indent <= 0)
        return;
    m_out += '\n';
    m_out.append(m_first.size() * static_cast<size_t>(m_indent), ' ');
}

void JsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back())
            m_out += ',';
        m_first.back() = false;
        newline();
    }
}

JsonWriter &JsonWriter::beginObject()
{
    beforeValue();
    m_out += '{';
    m_first.push_back(true);
    return *this;
}

JsonWriter &JsonWriter::endObject()
{
    bool empty = m_first.back();
    m_first.pop_back();
    if (!empty)
        newline();
    m_out += '}';
    return *this;
}

JsonWriter &JsonWriter::beginArray()
{
    beforeValue();
    m_out += '[';
    m_first.push_back(true);
    return *this;
}

JsonWriter &JsonWriter::endArray()
{
    bool empty = m_first.back();
    m_first.pop_back();
    if (!empty)
        newline();
    m_out += ']';
    return *this;
}

JsonWriter &JsonWriter::key(std::string_view k)
{
    beforeValue();
    m_out += escape(k);
    m_out += m_indent > 0 ? ": " : ":";
    m_afterKey = true;
    return *this;
}

JsonWriter &JsonWriter::value(std::string_view s)
{
    beforeValue();
    m_out += escape(s);
    return *this;
}

JsonWriter &JsonWriter::value(int64_t v)
{
    beforeValue();
    m_out += std::to_string(v);
    return *this;
}

JsonWriter &JsonWriter::integerText(std::string_view digits)
{
    beforeValue();
    m_out += digits;
    return *this;
}

JsonWriter &JsonWriter::value(uint64_t v)
{
    beforeValue();
    m_out += std::to_string(v);
    return *this;
}

JsonWriter &JsonWriter::value(double v)
{
    beforeValue();
    if (!std::isfinite(v)) {
        m_out += "null"; // JSON has no NaN/Inf
        return *this;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    // Prefer the shortest representation that round-trips.
    for (int prec = 1; prec <= 17; ++prec) {
        char tryBuf[32];
        std::snprintf(tryBuf, sizeof tryBuf, "%.*g", prec, v);
        if (std::strtod(tryBuf, nullptr) == v) {
            m_out += tryBuf;
            return *this;
        }
    }
    m_out += buf;
    return *this;
}

JsonWriter &JsonWriter::value(bool v)
{
    beforeValue();
    m_out += v ? "true" : "false";
    return *this;
}

JsonWriter &JsonWriter::null()
{
    beforeValue();
    m_out += "null";
    return *this;
}

std::string JsonWriter::escape(std::string_view s)
{
    std::string r;
    r.reserve(s.size() + 2);
    r += '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            r += "\\\"";
            break;
        case '\\':
            r += "\\\\";
            break;
        case '\n':
            r += "\\n";
            break;
        case '\r':
            r += "\\r";
            break;
        case '\t':
            r += "\\t";
            break;
        case '\b':
            r += "\\b";
            break;
        case '\f':
            r += "\\f";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                r += buf;
            } else {
                r += static_cast<char>(c);
            }
        }
    }
    r += '"';
    return r;
}

} // namespace ps::core
