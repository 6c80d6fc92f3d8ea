#include "core/trace/formats/formatreaders.h"

#include "core/trace/formats/kinetoreader.h"

namespace ps::core::trace {

void addFormatReaders(ReaderRegistry &registry)
{
    // A registry probes the reader added last first.
    registry.add(std::make_shared<KinetoReader>());
}

} // namespace ps::core::trace
