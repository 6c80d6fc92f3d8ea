// libFuzzer target: any bytes, written to a temp file, read as a Kineto trace. The reader must
// return an error naming the file or a store; never crash, hang or read out of bounds. The
// splitter is also run with 7-byte blocks, which puts block ends inside strings, escapes and
// numbers.

#include "../fuzzinput.h"
#include "core/trace/formats/bytesource.h"
#include "core/trace/formats/kinetoreader.h"
#include "core/trace/formats/traceeventsplitter.h"

#include <unistd.h>

#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ps::core::trace;
    static const std::string path = "/tmp/fuzz_kinetoreader_" + std::to_string(::getpid()) + ".json";
    if (!writeFuzzInput(path, data, size))
        return 0;
    StoreBuilder b;
    ReportMeta meta;
    const std::string error = KinetoReader().read(path, b, meta, ReadContext{});
    if (error.empty()) {
        const EventStore store = std::move(b).build();
        (void)store.eventCount();
    } else if (error.find(path) == std::string::npos) {
        __builtin_trap(); // every error names the file
    }
    formats::ByteSource src;
    if (src.open(path).empty()) {
        formats::TraceEventSplitter split(7);
        size_t bytes = 0;
        (void)split.run(src, [&](std::string_view batch) {
            bytes += batch.size();
            return bytes <= size; // batches are parts of the input, never more
        });
    }
    return 0;
}
