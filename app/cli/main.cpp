// profstudio-cli: the scriptable face of the core (../shared/spec/cli.md). Links no Qt; the
// commands live in the profstudio_cli library (app/cli/cli.h).

#include "app/cli/cli.h"

#include <iostream>

int main(int argc, char **argv)
{
    std::ios::sync_with_stdio(false);
    return ps::cli::run(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
