// libFuzzer target: any bytes as a CUDA memory snapshot pickle, decoded, read into the snapshot
// model and analysed (peaks, live blocks, OOMs). Every error must name the input and give the
// byte offset or key path; nothing may crash, hang, overflow or read out of bounds, and memory
// stays in proportion to the input (run with -rss_limit_mb=1024).

#include "core/analysis/memory/memorypeak.h"
#include "core/trace/formats/pickledecoder.h"
#include "core/trace/formats/torchmemoryfiles.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ps::core;
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    static const std::string name = "fuzz.pickle";
    trace::MemorySnapshot s;
    const std::string error = trace::readMemorySnapshotBytes(bytes, name, s);
    if (!error.empty()) {
        if (error.rfind(name + ": ", 0) != 0)
            __builtin_trap(); // every error names the file
        return 0;
    }
    const analysis::SnapshotMemory m = analysis::analyzeSnapshot(s);
    for (const analysis::DeviceMemory &d : m.devices)
        for (const analysis::LiveGroup &g : d.liveAtPeak)
            for (uint32_t f : g.frames)
                if (f >= s.frames.size())
                    __builtin_trap();
    return 0;
}
