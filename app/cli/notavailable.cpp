#include "app/cli/commands.h"

namespace ps::cli {

int notAvailableYet(const std::string &command, const std::string &summary, const Args &args, std::ostream &out,
                    std::ostream &err)
{
    for (const auto &a : args) {
        if (a == "--help" || a == "-h") {
            out << "Usage: profstudio-cli " << command << " [options]\n\n"
                << summary << "\n\nThis command is not available yet in this build.\n";
            return 0;
        }
    }
    err << "error: '" << command << "' is not available yet in this build\n";
    return 2;
}

} // namespace ps::cli
