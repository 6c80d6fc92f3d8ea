#pragma once
// Which training steps a run profiled, so that steps counted from the data (capture step 1, 2, ...
// of a report, phases.h) are shown as the steps they were: a demo run that profiled steps 2-4
// says "step 2", not "step 1".
//
// The profiled steps come from the run's config when one sits with the reports:
//   - verl:    global_profiler.steps, or the older trainer.profile_steps;
//   - RLinf:   cluster.profiling.steps (ProfStudio's own schema, what `profstudio-cli demo` writes).
// Where the config is looked for, for each folder D holding reports (the first few folders only):
//   D/*.yaml, D/.hydra/config.yaml and D/../.hydra/config.yaml (Hydra's record of the composed
//   config), and D/../config/*.yaml (the demo's layout: config/ beside profiling/).
// A file that does not parse, or whose steps are not a list of integers, is skipped. When the
// files found disagree, or none names the steps, nothing is guessed: steps stay counted 1..N.
// Reads a few small files; no Qt.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::analysis {

struct ProfiledSteps
{
    std::vector<int64_t> steps; // ascending, distinct
    std::string key;            // "cluster.profiling.steps"
    std::string file;           // the config file that says so
    // "cluster.profiling.steps in /run/config/demo.yaml"
    std::string source() const;
};

// The step list a config file names, if it names one (throws nothing: unreadable -> nullopt).
std::optional<ProfiledSteps> profiledStepsInFile(const std::string &yamlPath);

// The steps the run whose reports are at `reportPaths` profiled, from a config beside them.
// Nullopt when no config there names them, or when `why` (if given) says they disagree:
// "configs disagree on the profiled steps: A says [2, 3], B says [5]".
std::optional<ProfiledSteps> profiledStepsNear(const std::vector<std::string> &reportPaths, std::string *why = nullptr);

// A step a range names by itself: "ProfilerStep#3" (PyTorch), "step 3", "step_3", "step#3",
// "step:3" or "step3" (either case of the first letter). Nullopt for anything else.
std::optional<int64_t> stepNamedBy(std::string_view rangeName);

// The profiled step of counted step `counted` (1-based) of `countedSteps` counted in all, when the
// config lists exactly that many steps; else nullopt (the count and the config disagree: no
// guessing which steps were captured).
std::optional<int64_t> profiledStepOf(const ProfiledSteps &steps, int64_t counted, int64_t countedSteps);

} // namespace ps::core::analysis
