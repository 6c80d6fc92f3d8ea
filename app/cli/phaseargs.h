#pragma once
// --phases FILE, shared by `trace phases` and `trace compare`.

#include "app/cli/cliargs.h"
#include "core/analysis/phases/phasemapping.h"

#include <ostream>

namespace ps::cli {

inline OptionSpec phasesOption()
{
    return {"phases", "FILE",
            "extra LABEL = PHASE rules ('*' wildcards, '#' comments), tried before the built-in ones"};
}

// The built-in mapping with the --phases file's rules first. False, reported on `err` as
// FILE:LINE: error: ..., when the file cannot be read or has a bad line.
bool mappingFromArgs(const ParsedArgs &a, std::ostream &err, core::analysis::PhaseMapping &mapping);

} // namespace ps::cli
