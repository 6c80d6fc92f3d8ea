#include "core/trace/formats/formatreaders.h"

#include "core/trace/formats/ascendreader.h"
#include "core/trace/formats/kinetoreader.h"
#include "core/trace/formats/nsysrepreader.h"
#include "core/trace/formats/rlinftracereader.h"
#include "core/trace/formats/rocpdreader.h"

namespace ps::core::trace {

void addFormatReaders(ReaderRegistry &registry)
{
    // A registry probes the reader added last first.
    registry.add(std::make_shared<KinetoReader>());
    registry.add(std::make_shared<RocpdReader>());
    registry.add(std::make_shared<AscendReader>());
    registry.add(std::make_shared<NsysRepReader>());
    registry.add(std::make_shared<RlinfTracerReader>());
}

} // namespace ps::core::trace
