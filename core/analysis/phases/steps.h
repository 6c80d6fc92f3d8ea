#pragma once
// Step windows of one report, for a breakdown per step: the CPU-side ranges named
// "<prefix><N>" (PyTorch's "ProfilerStep#N" by default). A step seen on several threads spans
// from its earliest start to its latest end. GPU-side projections of the same name (Kineto's
// gpu_user_annotation) are not used: they run past the next step's CPU start.

#include "core/analysis/breakdown/breakdown.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps::core::analysis {

struct StepWindow
{
    int64_t step = 0;
    TimeWindow window;
};

// Sorted by step number.
std::vector<StepWindow> stepWindows(const trace::EventStore &store, std::string_view prefix = "ProfilerStep#");
// PyTorch's "ProfilerStep#N" windows, else those of ranges that name their step another way
// ("step 3", "step_3": stepnumbering.h's stepNamedBy).
std::vector<StepWindow> namedStepWindows(const trace::EventStore &store);

} // namespace ps::core::analysis
