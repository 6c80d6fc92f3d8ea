// libFuzzer target: any bytes, written to a temp file, read as an nsys SQLite export.
// The reader must return an error or a store; never crash, hang or read out of bounds.

#include "../fuzzinput.h"
#include "core/trace/read/traceloader.h"
#include "fuzzexercise.h"

#include <unistd.h>

#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const std::string path = "/tmp/fuzz_nsysreader_" + std::to_string(::getpid()) + ".sqlite";
    if (!writeFuzzInput(path, data, size))
        return 0;
    ps::core::trace::ReadContext ctx;
    ctx.threads = 2;
    ctx.splitRows = 4; // exercise the rowid-range split on tiny tables
    std::string error;
    auto report = ps::core::trace::loadReport(path, ctx, error);
    if (report)
        exerciseStore(report);
    else if (error.find(path) == std::string::npos)
        __builtin_trap(); // every error names the file
    return 0;
}
