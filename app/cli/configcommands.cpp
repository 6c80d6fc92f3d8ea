#include "app/cli/commands.h"

namespace ps::cli {

int cmdCompose(const Args &args, std::ostream &out, std::ostream &err)
{
    return notAvailableYet("compose", "Compose a Hydra config and print it as `--cfg job` does.", args, out, err);
}

int cmdExplain(const Args &args, std::ostream &out, std::ostream &err)
{
    return notAvailableYet("explain", "Show every file:line that set one composed value.", args, out, err);
}

} // namespace ps::cli
