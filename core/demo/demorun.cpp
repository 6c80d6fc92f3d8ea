#include "core/demo/demorun.h"

namespace ps::core::demo {

std::string validateDemoOptions(const DemoOptions &options)
{
    if (options.outDir.empty())
        return "an output directory is required";
    if (options.ranks < 1 || options.ranks > 1024)
        return "ranks must be between 1 and 1024";
    if (options.steps < 1 || options.steps > 1000)
        return "steps must be between 1 and 1000";
    if (options.eventsPerReport < 0)
        return "events per report must not be negative";
    if (options.firstStep < 0)
        return "the first profiled step must not be negative";
    return {};
}

bool writeDemoRun(const DemoOptions &options, DemoResult &result, std::string &error)
{
    result = {};
    error = validateDemoOptions(options);
    if (error.empty())
        error = "the demo generator is not implemented yet";
    return false;
}

} // namespace ps::core::demo
