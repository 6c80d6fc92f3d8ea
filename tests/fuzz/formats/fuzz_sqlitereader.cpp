// libFuzzer target, built twice: any bytes, written to a temp file, read as a rocpd database
// (fuzz_rocpdreader, PS_FUZZ_ROCPD) or an Ascend profiler database (fuzz_ascendreader), by the
// reader itself, without the probe that would send most mutants elsewhere. The reader must return
// an error or a store; never crash, hang or read out of bounds; the store is then used as a view
// would use it. Seed with tests/fuzz/formats/makeseeds.sh.

#include "../fuzzinput.h"
#include "../trace/fuzzexercise.h"
#include "core/trace/formats/ascendreader.h"
#include "core/trace/formats/rocpdreader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ps::core::trace;
#ifdef PS_FUZZ_ROCPD
    static const RocpdReader reader;
    static const std::string path = "/tmp/fuzz_rocpdreader_" + std::to_string(::getpid()) + ".db";
#else
    static const AscendReader reader;
    static const std::string path =
        "/tmp/fuzz_ascendreader_" + std::to_string(::getpid()) + "/ascend_pytorch_profiler_3.db";
    static const bool dir = ::mkdir(path.substr(0, path.rfind('/')).c_str(), 0700) == 0;
    (void)dir;
#endif
    if (!writeFuzzInput(path, data, size))
        return 0;
    StoreBuilder b;
    auto report = std::make_shared<Report>();
    if (!reader.read(path, b, report->meta, ReadContext{}).empty())
        return 0;
    report->store = std::make_shared<EventStore>(std::move(b).build());
    exerciseStore(report);
    return 0;
}
