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

namespace {

// The scanner's state, kept across blocks: where it is in strings and brackets, and which part
// of the buffer holds complete events not yet handed out.
struct Scan
{
    Scan(std::string &header, char &top) : header(header), top(top) {}

    std::string &header;
    char &top;
    bool inString = false, escape = false;
    int depth = 0;
    bool inEvents = false;    // inside the traceEvents array
    bool eventsSeen = false;  // the array was found (and maybe already closed)
    int elemDepth = 0;        // depth inside an event object
    size_t elemStart = npos;  // start of the event being scanned
    size_t batchStart = npos; // start of the first complete event not yet handed out
    size_t batchEnd = npos;   // end of the last complete event
    std::string key, lastKey; // strings directly inside the top-level object

    // Hot path: strings inside events (most of the file). Keys and names are short, so a tight
    // loop beats memchr's call overhead.
    void eventString(const char *b, size_t &i, size_t len)
    {
        if (escape) {
            escape = false;
            ++i;
            return;
        }
        while (i < len && !kStringStop[uint8_t(b[i])])
            ++i;
        if (i >= len)
            return;
        if (b[i] == '\\')
            escape = true;
        else
            inString = false;
        ++i;
    }

    // Header strings (outside the events): kept, and top-level keys remembered.
    void headerStringChar(char c)
    {
        header += c;
        if (escape) {
            escape = false;
        } else if (c == '\\') {
            escape = true;
        } else if (c == '"') {
            inString = false;
            if (depth == 1)
                lastKey.swap(key);
            return;
        }
        if (depth == 1)
            key += c;
    }

    // '{' or '['; true when the character opened the events array (and is already in the header).
    bool open(char c, size_t i)
    {
        ++depth;
        if (depth == 1 && !top) {
            top = c;
            if (c == '[') { // bare array of events
                inEvents = eventsSeen = true;
                elemDepth = 2;
                header += "[";
                return true;
            }
        } else if (!inEvents && !eventsSeen && depth == 2 && c == '[' && top == '{' && lastKey == "traceEvents") {
            inEvents = eventsSeen = true;
            elemDepth = 3;
            header += "[";
            return true;
        } else if (inEvents && depth == elemDepth && c == '{') {
            elemStart = i;
        }
        return false;
    }

    // '}' or ']'; true when the character closed the events array (and is already in the header).
    bool close(char c, size_t i)
    {
        --depth;
        if (!inEvents)
            return false;
        if (depth == elemDepth - 1 && c == '}' && elemStart != npos) {
            if (batchStart == npos)
                batchStart = elemStart;
            batchEnd = i + 1;
            elemStart = npos;
        } else if (depth == elemDepth - 2 && c == ']') {
            inEvents = false;
            header += "]";
            return true;
        }
        return false;
    }

    // Scans b[i, len); returns a reason when the text cannot be a Chrome trace.
    const char *block(const char *b, size_t &i, size_t len)
    {
        while (i < len) {
            if (inString) {
                if (inEvents)
                    eventString(b, i, len);
                else
                    headerStringChar(b[i++]);
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
            bool consumed = false; // the events array's own bracket, already in the header
            switch (c) {
            case '"':
                inString = true;
                if (!inEvents && depth == 1)
                    key.clear();
                break;
            case '{':
            case '[':
                consumed = open(c, i);
                break;
            case '}':
            case ']':
                consumed = close(c, i);
                break;
            default:
                if (!top && c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != '\xEF' && c != '\xBB' &&
                    c != '\xBF')
                    return "not JSON (expected '{' or '[' at the start)";
                break;
            }
            if (!consumed && !inEvents)
                header += c;
            ++i;
        }
        return nullptr;
    }

    std::string endOfInput() const
    {
        if (!top)
            return "empty document (expected a JSON object with traceEvents)";
        if (depth != 0 || inString)
            return inEvents ? "truncated JSON (the file ends inside traceEvents)" : "truncated JSON";
        if (!eventsSeen)
            return "no traceEvents array (not a Chrome trace)";
        return {};
    }
};

} // namespace

std::string TraceEventSplitter::run(ByteSource &src, const BatchFn &onBatch)
{
    m_header.clear();
    m_top = 0;
    Scan scan(m_header, m_top);
    std::vector<char> buf;
    size_t len = 0; // bytes in buf
    size_t i = 0;   // scan position
    for (;;) {
        if (buf.size() < len + m_block)
            buf.resize(len + m_block);
        const size_t got = src.read(buf.data() + len, m_block);
        if (!src.error().empty())
            return src.error();
        if (got == 0)
            break;
        len += got;
        if (const char *bad = scan.block(buf.data(), i, len))
            return bad;
        // Hand out the complete events, then drop what was consumed.
        if (scan.batchStart != npos) {
            if (!onBatch(std::string_view(buf.data() + scan.batchStart, scan.batchEnd - scan.batchStart)))
                return "cancelled";
            scan.batchStart = scan.batchEnd = npos;
        }
        const size_t keepFrom = scan.elemStart != npos ? scan.elemStart : len;
        if (keepFrom > 0) {
            std::memmove(buf.data(), buf.data() + keepFrom, len - keepFrom);
            len -= keepFrom;
            i -= keepFrom;
            if (scan.elemStart != npos)
                scan.elemStart -= keepFrom;
        }
    }
    return scan.endOfInput();
}

} // namespace ps::core::trace::formats
