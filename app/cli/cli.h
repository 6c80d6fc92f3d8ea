#pragma once
// profstudio-cli as a library (profstudio_cli): the executable's main() and the tests call the
// same entry point, so the tests run every command in process and read its output as a string.

#include <ostream>
#include <string>
#include <vector>

namespace ps::cli {

// Runs one profstudio-cli command line: `args` without the program name, results on `out`,
// diagnostics on `err`. Returns the exit status of ../shared/spec/cli.md: 0 success, 1 the input
// has errors, 2 bad usage. Reads the process environment (cache directory and cap, Hydra's
// oc.env) but changes no process-wide state, so it can run many times in one process.
int run(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

} // namespace ps::cli
