#pragma once
// Where Python would import a package from, for Hydra's `pkg://a.b.c` search-path entries (its
// ImportlibResourcesConfigSource reads importlib.resources.files("a.b.c"); it reports the source
// "not available" when the folder has no __init__.py, but still reads a namespace package's
// first folder). Nothing is run: the import is followed on the file
// system, as Python's path finder does it: per dotted level, the first path entry with
// NAME/__init__.py (the regular package) or NAME.py (a module, so no package) wins; without
// either, every NAME/ folder is a portion of a namespace package, whose sub-packages are
// searched in those portions.
//
// The path entries, in order: the ancestors of the primary config dir (a source checkout run from
// its root, as `python -m pkg.module` puts the working directory first), then PYTHONPATH, then
// python3's site-packages where present (the virtualenv or conda prefix, /usr/local, /usr, the
// user's ~/.local).

#include "core/config/envlookup.h"

#include <optional>
#include <string>

namespace ps::core::config {

struct PythonPackageDir
{
    std::string dir;      // the package's folder
    std::string entry;    // the path entry it was found under
    std::string foundVia; // "an ancestor of the primary config dir", "PYTHONPATH", "python3's site-packages"
    bool hasInit = false; // a regular package; Hydra warns "not available" for a namespace one
};

// nullopt when Python would not import `dotted` as a package.
std::optional<PythonPackageDir> findPythonPackage(const std::string &dotted, const std::string &primaryConfigDir,
                                                  const EnvLookup &env);

} // namespace ps::core::config
