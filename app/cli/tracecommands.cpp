#include "app/cli/commands.h"

namespace ps::cli {

int cmdTraceInfo(const Args &args, std::ostream &out, std::ostream &err)
{
    return notAvailableYet("trace info", "Per report: format, identity, UTC start, duration and event counts.", args,
                           out, err);
}

int cmdTraceStats(const Args &args, std::ostream &out, std::ostream &err)
{
    return notAvailableYet("trace stats", "nvtx_sum, kernel_sum and cross-report compare.", args, out, err);
}

int cmdTraceAlign(const Args &args, std::ostream &out, std::ostream &err)
{
    return notAvailableYet("trace align", "Offsets that put reports on one time axis.", args, out, err);
}

} // namespace ps::cli
