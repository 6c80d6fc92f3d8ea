#include "app/cli/phaseargs.h"

#include "core/common/atomicfile.h"

namespace ps::cli {

// The defaults, with a --phases file's rules first. False (reported) when the file
// cannot be read or has a bad line.
bool mappingFromArgs(const ParsedArgs &a, std::ostream &err, core::analysis::PhaseMapping &mapping)
{
    mapping = core::analysis::PhaseMapping::defaults();
    if (!a.has("phases"))
        return true;
    const std::string file = a.value("phases");
    std::string text, error;
    if (!core::readWholeFile(file, text, error)) {
        err << "error: " << error << "\n";
        return false;
    }
    const auto user = core::analysis::PhaseMapping::parse(text, file, error);
    if (!user) {
        err << error << "\n";
        return false;
    }
    mapping.prepend(*user);
    return true;
}

} // namespace ps::cli
