// libFuzzer target: any bytes, written to a temp file, read as an RLinf tracer file
// (trace_events.jsonl): one report per worker, then each store used as a view would use it. The
// reader must return an error naming the file or the reports; never crash, hang or read out of
// bounds. Seed with a few lines of the tracer's output (tests/formats/tst_rlinftracer.cpp).

#include "../fuzzinput.h"
#include "../trace/fuzzexercise.h"
#include "core/trace/formats/rlinftracereader.h"

#include <unistd.h>

#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ps::core::trace;
    static const std::string path = "/tmp/fuzz_rlinftracer_" + std::to_string(::getpid()) + ".jsonl";
    if (!writeFuzzInput(path, data, size))
        return 0;
    std::string error;
    const std::vector<ReportPtr> reports = loadRlinfTraceReports(path, ReadContext{}, error);
    if (!error.empty() && error.find(path) == std::string::npos)
        __builtin_trap(); // every error names the file
    for (const ReportPtr &r : reports)
        exerciseStore(r);
    return 0;
}
