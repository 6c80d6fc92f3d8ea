#include "core/trace/formats/nsyslocator.h"

#include "core/common/naturalorder.h"
#include "core/trace/formats/childprocess.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

namespace ps::core::trace::formats {

namespace fs = std::filesystem;

namespace {

// Numbers separated by `sep` at the start of `text`: "2025@3@2@474-…" → {2025, 3, 2, 474}.
NsysVersion numbersAt(std::string_view text, char sep)
{
    NsysVersion out;
    size_t at = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
        int n = 0;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9' && n < 100000000)
            n = n * 10 + (text[at++] - '0');
        out.push_back(n);
        if (at >= text.size() || text[at] != sep)
            break;
        ++at;
    }
    return out;
}

// A release names its year first: "1." (what 2022.4 writes) is no release.
std::optional<NsysVersion> releaseAfter(std::string_view head, std::string_view marker, char sep)
{
    const size_t at = head.find(marker);
    if (at == std::string_view::npos)
        return std::nullopt;
    NsysVersion v = numbersAt(head.substr(at + marker.size()), sep);
    if (v.size() < 2 || v[0] < 2000)
        return std::nullopt;
    return v;
}

std::optional<NsysVersion> askVersion(const std::string &nsys, const CancelToken *cancel)
{
    static std::mutex mutex;
    static std::map<std::string, std::optional<NsysVersion>> asked;
    {
        std::lock_guard lock(mutex);
        if (auto it = asked.find(nsys); it != asked.end())
            return it->second;
    }
    const ChildResult r = runChild({nsys, "--version"}, cancel);
    if (r.cancelled)
        return std::nullopt;
    // "NVIDIA Nsight Systems version 2022.4.2.1-df9881f"
    std::optional<NsysVersion> v =
        r.started && r.exitCode == 0 ? releaseAfter(r.output, "version ", '.') : std::nullopt;
    std::lock_guard lock(mutex);
    asked[nsys] = v;
    return v;
}

// Executables matching <dir>/<prefix>*<tail>, newest release (by natural order) first.
std::vector<std::string> globbed(const std::string &dir, const std::string &prefix, const std::string &tail)
{
    std::vector<std::string> found;
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.compare(0, prefix.size(), prefix) == 0)
            found.push_back((it->path() / tail).string());
    }
    std::sort(found.begin(), found.end(), [](const std::string &a, const std::string &b) { return naturalLess(b, a); });
    return found;
}

// Every `nsys` on PATH, in PATH's order.
std::vector<std::string> onPath()
{
    std::vector<std::string> found;
    const char *path = std::getenv("PATH");
    const std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    for (size_t at = 0; at <= dirs.size();) {
        const size_t end = std::min(dirs.find(':', at), dirs.size());
        const std::string dir = end > at ? dirs.substr(at, end - at) : std::string(".");
        found.push_back(dir + "/nsys");
        at = end + 1;
    }
    return found;
}

std::vector<std::string> candidatePaths(const std::string &configured)
{
    std::vector<std::string> paths;
    if (!configured.empty())
        paths.push_back(configured.find('/') == std::string::npos ? findExecutable(configured) : configured);
    if (const char *env = std::getenv("PROFSTUDIO_NSYS"); env && *env)
        paths.push_back(findExecutable(env));
    for (const auto &list :
         {onPath(), globbed("/opt/nvidia/nsight-systems", "", "bin/nsys"), globbed("/usr/local", "cuda", "bin/nsys")})
        paths.insert(paths.end(), list.begin(), list.end());
    return paths;
}

} // namespace

std::string versionText(const NsysVersion &v)
{
    std::string out;
    for (int n : v)
        out += (out.empty() ? "" : ".") + std::to_string(n);
    return out;
}

std::optional<NsysVersion> reportVersion(std::string_view head)
{
    if (head.substr(0, 29) != "NVIDIA Tegra Profiler Report ")
        return std::nullopt;
    return releaseAfter(head.substr(0, 128), "Report ", '@');
}

std::optional<NsysVersion> qdstrmVersion(std::string_view head)
{
    return releaseAfter(head.substr(0, 128), "Nsight Systems Stream ", '.');
}

bool canRead(const NsysVersion &nsys, const NsysVersion &report)
{
    for (size_t i = 0; i < 3; ++i) {
        const int a = i < nsys.size() ? nsys[i] : 0, b = i < report.size() ? report[i] : 0;
        if (a != b)
            return a > b;
    }
    return true;
}

std::vector<NsysInstall> findNsysInstalls(const std::string &configured, const CancelToken *cancel)
{
    std::vector<NsysInstall> installs;
    std::vector<std::string> seen;
    for (const std::string &path : candidatePaths(configured)) {
        std::error_code ec;
        if (path.empty() || ::access(path.c_str(), X_OK) != 0 || fs::is_directory(path, ec))
            continue;
        const std::string real = fs::canonical(path, ec).string();
        if (std::find(seen.begin(), seen.end(), real) != seen.end())
            continue;
        seen.push_back(real);
        installs.push_back({path, askVersion(path, cancel)});
    }
    return installs;
}

const NsysInstall *pickNsys(const std::vector<NsysInstall> &installs, const std::optional<NsysVersion> &needed)
{
    for (const NsysInstall &i : installs)
        // An nsys that does not say its release is tried: its own error is then the answer.
        if (!needed || !i.version || canRead(*i.version, *needed))
            return &i;
    return nullptr;
}

std::string describeInstalls(const std::vector<NsysInstall> &installs)
{
    std::string out;
    for (const NsysInstall &i : installs)
        out +=
            (out.empty() ? "" : ", ") + i.path + " (" + (i.version ? versionText(*i.version) : "release unknown") + ")";
    return out;
}

std::string importerBeside(const std::string &nsys)
{
    std::error_code ec;
    const fs::path real = fs::canonical(nsys, ec);
    if (ec)
        return {};
    // target-linux-x64/nsys (or NVIDIA's bin/nsys) → ../host-linux-x64/QdstrmImporter; an nsys
    // in the host folder itself has it beside.
    for (const fs::path &dir : {real.parent_path().parent_path() / "host-linux-x64", real.parent_path()}) {
        const fs::path importer = dir / "QdstrmImporter";
        if (::access(importer.c_str(), X_OK) == 0)
            return importer.string();
    }
    return {};
}

} // namespace ps::core::trace::formats
