#pragma once
// POSIX path arithmetic the frameworks do in Python (os.path.join / abspath / normpath) on
// paths of the cluster, not of this machine: pure string work, no filesystem access.

#include <string>

namespace ps::core::profiling {

// os.path.join(a, b): b wins when absolute; one '/' between.
std::string joinPath(const std::string &a, const std::string &b);
// os.path.normpath: collapses "//", "." and ".." (never above "/").
std::string normalizePath(const std::string &path);
// os.path.abspath(path) for a process whose working directory is `cwd`.
std::string absolutePath(const std::string &path, const std::string &cwd);
// os.path.dirname / basename.
std::string dirName(const std::string &path);
std::string baseName(const std::string &path);

} // namespace ps::core::profiling
