#include "app/cli/commands.h"

namespace ps::cli {

int cmdValidate(const Args &args, std::ostream &out, std::ostream &err)
{
    return notAvailableYet("validate", "Check a profiling config and print located diagnostics.", args, out, err);
}

int cmdPlan(const Args &args, std::ostream &out, std::ostream &err)
{
    return notAvailableYet("plan", "Show the launch command, environment and output files of every profiled worker.",
                           args, out, err);
}

int cmdExport(const Args &args, std::ostream &out, std::ostream &err)
{
    return notAvailableYet("export", "Export a config as YAML, minimal YAML, Hydra overrides or a ray job line.", args,
                           out, err);
}

} // namespace ps::cli
