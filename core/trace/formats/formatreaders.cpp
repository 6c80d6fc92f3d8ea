#include "core/trace/formats/formatreaders.h"

#include "core/trace/formats/ascendreader.h"
#include "core/trace/formats/kinetoreader.h"
#include "core/trace/formats/nsysrepreader.h"
#include "core/trace/formats/rlinftracereader.h"
#include "core/trace/formats/rocpdreader.h"
#include "core/trace/formats/torchmemoryreader.h"

namespace ps::core::trace {

void addFormatReaders(ReaderRegistry &registry)
{
    // A registry probes the reader added last first.
    registry.add(std::make_shared<KinetoReader>());
    registry.add(std::make_shared<RocpdReader>());
    registry.add(std::make_shared<AscendReader>());
    registry.add(std::make_shared<NsysRepReader>());
    registry.add(std::make_shared<RlinfTracerReader>());
    // Before Kineto's: a memory timeline is a .json / .json.gz whose name says memory.
    registry.add(std::make_shared<TorchMemoryReader>());
}

} // namespace ps::core::trace
