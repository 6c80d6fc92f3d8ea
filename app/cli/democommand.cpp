#include "app/cli/commands.h"

namespace ps::cli {

int cmdDemo(const Args &args, std::ostream &out, std::ostream &err)
{
    return notAvailableYet("demo", "Write a realistic RLinf demo run (config + nsys SQLite exports).", args, out, err);
}

} // namespace ps::cli
