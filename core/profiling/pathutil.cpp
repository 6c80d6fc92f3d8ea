#include "core/profiling/pathutil.h"

#include <vector>

namespace ps::core::profiling {

std::string joinPath(const std::string &a, const std::string &b)
{
    if (!b.empty() && b.front() == '/')
        return b;
    if (a.empty() || a.back() == '/')
        return a + b;
    return a + "/" + b;
}

std::string normalizePath(const std::string &path)
{
    if (path.empty())
        return ".";
    const bool absolute = path.front() == '/';
    std::vector<std::string> parts;
    size_t i = 0;
    while (i <= path.size()) {
        size_t j = path.find('/', i);
        if (j == std::string::npos)
            j = path.size();
        const std::string part = path.substr(i, j - i);
        if (part.empty() || part == ".") {
            // skip
        } else if (part == "..") {
            if (!parts.empty() && parts.back() != "..")
                parts.pop_back();
            else if (!absolute)
                parts.push_back(part);
        } else {
            parts.push_back(part);
        }
        i = j + 1;
    }
    std::string out = absolute ? "/" : "";
    for (size_t k = 0; k < parts.size(); ++k)
        out += (k ? "/" : "") + parts[k];
    return out.empty() ? "." : out;
}

std::string absolutePath(const std::string &path, const std::string &cwd)
{
    return normalizePath(joinPath(cwd, path));
}

std::string dirName(const std::string &path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return {};
    std::string head = path.substr(0, slash + 1);
    while (head.size() > 1 && head.back() == '/')
        head.pop_back();
    return head;
}

std::string baseName(const std::string &path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace ps::core::profiling
