#pragma once
// A compared phase cell's range in one run's report, for the timeline to select (comparepane.h).
// Named by the report's path: the pager swaps a report's objects as it pages events in and out.

#include "core/trace/store/tracetypes.h"

#include <string>

namespace ps::views {

struct CompareSite
{
    std::string reportPath;
    core::trace::EventRef range;
};

} // namespace ps::views
