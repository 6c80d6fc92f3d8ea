#pragma once
// Streams a Chrome-trace JSON document ({"traceEvents": [...], ...} or a bare [...] array) and
// hands its trace events to the caller in batches of complete elements, so that a JSON library
// only ever sees a few MiB at a time and memory stays flat whatever the file size. Everything
// outside the events array (the "header": schemaVersion, distributedInfo, baseTimeNanoseconds,
// which Kineto writes *after* the events) is kept as JSON text with "traceEvents": [].
//
// The scanner only tracks strings (with escapes) and bracket depth; it does not validate. The
// batches are validated by the JSON library that parses them.

#include "core/trace/formats/bytesource.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace::formats {

class TraceEventSplitter
{
public:
    // `batch` is "elem, elem, ..., elem": the text of consecutive complete events with the
    // separators between them (no surrounding brackets). Return false to stop (cancel).
    using BatchFn = std::function<bool(std::string_view batch)>;

    explicit TraceEventSplitter(size_t blockSize = size_t(4) << 20) : m_block(blockSize) {}

    // Reads the whole source. Returns "" on success, "cancelled" when `onBatch` returned false,
    // else a reason (without the path).
    std::string run(ByteSource &src, const BatchFn &onBatch);

    // The document without its events, e.g. {"schemaVersion": 1, "traceEvents": [], ...}; "[]"
    // for a bare array. Valid after run().
    const std::string &header() const { return m_header; }

private:
    size_t m_block;
    std::string m_header;
    char m_top = 0;
};

} // namespace ps::core::trace::formats
