#include "core/trace/formats/traceeventsplitter.h"

#include <algorithm>
#include <cstring>

namespace ps::core::trace::formats {

namespace {
constexpr size_t npos = size_t(-1);

struct CharTable
{
    bool v[256] = {};
    constexpr CharTable(std::string_view chars)
    {
        for (char c : chars)
            v[uint8_t(c)] = true;
    }
    constexpr bool operator[](uint8_t c) const { return v[c]; }
};
constexpr CharTable kStringStop("\"\\");
constexpr CharTable kStructural("\"{}[]");
} // namespace

std::string TraceEventSplitter::run(ByteSource &src, const BatchFn &onBatch)
{
    m_header.clear();
    m_top = 0;
    std::vector<char> buf;
    size_t len = 0; // bytes in buf
    size_t i = 0;   // scan position
    bool inString = false, escape = false;
    int depth = 0;
    bool inEvents = false;    // inside the traceEvents array
    bool eventsSeen = false;  // the array was found (and maybe already closed)
    int elemDepth = 0;        // depth inside an event object
    size_t elemStart = npos;  // start of the event being scanned
    size_t batchStart = npos; // start of the first complete event not yet handed out
    size_t batchEnd = npos;   // end of the last complete event
    std::string key, lastKey; // strings directly inside the top-level object

    for (;;) {
        if (buf.size() < len + m_block)
            buf.resize(len + m_block);
        const size_t got = src.read(buf.data() + len, m_block);
        if (!src.error().empty())
            return src.error();
        if (got == 0)
            break;
        len += got;
        const char *b = buf.data();
        while (i < len) {
            if (inString && inEvents) {
                // Hot path: strings inside events (most of the file). Keys and names are
                // short, so a tight loop beats memchr's call overhead.
                if (escape) {
                    escape = false;
                    ++i;
                    continue;
                }
                while (i < len && !kStringStop[uint8_t(b[i])])
                    ++i;
                if (i >= len)
                    break;
                if (b[i] == '\\')
                    escape = true;
                else
                    inString = false;
                ++i;
                continue;
            }
            if (inString) {
                // Header strings (outside the events): kept, and top-level keys remembered.
                const char c = b[i++];
                m_header += c;
                if (escape) {
                    escape = false;
                } else if (c == '\\') {
                    escape = true;
                } else if (c == '"') {
                    inString = false;
                    if (depth == 1)
                        lastKey.swap(key);
                    continue;
                }
                if (depth == 1)
                    key += c;
                continue;
            }
            if (inEvents) {
                // Skip what cannot change the state: numbers, literals, separators, spaces.
                while (i < len && !kStructural[uint8_t(b[i])])
                    ++i;
                if (i >= len)
                    break;
            }
            const char c = b[i];
            switch (c) {
            case '"':
                inString = true;
                if (!inEvents && depth == 1)
                    key.clear();
                break;
            case '{':
            case '[':
                ++depth;
                if (depth == 1 && !m_top) {
                    m_top = c;
                    if (c == '[') { // bare array of events
                        inEvents = eventsSeen = true;
                        elemDepth = 2;
                        m_header += "[";
                        ++i;
                        continue;
                    }
                } else if (!inEvents && !eventsSeen && depth == 2 && c == '[' && m_top == '{' &&
                           lastKey == "traceEvents") {
                    inEvents = eventsSeen = true;
                    elemDepth = 3;
                    m_header += "[";
                    ++i;
                    continue;
                } else if (inEvents && depth == elemDepth && c == '{') {
                    elemStart = i;
                }
                break;
            case '}':
            case ']':
                --depth;
                if (inEvents) {
                    if (depth == elemDepth - 1 && c == '}' && elemStart != npos) {
                        if (batchStart == npos)
                            batchStart = elemStart;
                        batchEnd = i + 1;
                        elemStart = npos;
                    } else if (depth == elemDepth - 2 && c == ']') {
                        inEvents = false;
                        m_header += "]";
                        ++i;
                        continue;
                    }
                }
                break;
            default:
                if (!m_top && c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != '\xEF' && c != '\xBB' &&
                    c != '\xBF')
                    return "not JSON (expected '{' or '[' at the start)";
                break;
            }
            if (!inEvents)
                m_header += c;
            ++i;
        }
        // Hand out the complete events, then drop what was consumed.
        if (batchStart != npos) {
            if (!onBatch(std::string_view(b + batchStart, batchEnd - batchStart)))
                return "cancelled";
            batchStart = batchEnd = npos;
        }
        const size_t keepFrom = elemStart != npos ? elemStart : len;
        if (keepFrom > 0) {
            std::memmove(buf.data(), buf.data() + keepFrom, len - keepFrom);
            len -= keepFrom;
            i -= keepFrom;
            if (elemStart != npos)
                elemStart -= keepFrom;
        }
    }
    if (!m_top)
        return "empty document (expected a JSON object with traceEvents)";
    if (depth != 0 || inString)
        return inEvents ? "truncated JSON (the file ends inside traceEvents)" : "truncated JSON";
    if (!eventsSeen)
        return "no traceEvents array (not a Chrome trace)";
    return {};
}

} // namespace ps::core::trace::formats
