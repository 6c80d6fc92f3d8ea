#include "core/trace/tracecache.h"

#include "core/common/atomicfile.h"
#include "core/trace/cachecodec.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace ps::core::trace {

namespace fs = std::filesystem;

std::string defaultCacheDir()
{
    if (const char *d = std::getenv("PROFSTUDIO_CACHE_DIR"); d && *d)
        return d;
    if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
        return std::string(x) + "/profstudio";
    if (const char *h = std::getenv("HOME"); h && *h)
        return std::string(h) + "/.cache/profstudio";
    return (fs::temp_directory_path() / "profstudio-cache").string();
}

TraceCache::TraceCache(std::string dir) : m_dir(dir.empty() ? defaultCacheDir() : std::move(dir)) {}

namespace {

std::string absolutePath(const std::string &p)
{
    std::error_code ec;
    fs::path a = fs::weakly_canonical(fs::absolute(p, ec), ec);
    return ec ? p : a.string();
}

struct Mapping
{
    void *addr = nullptr;
    size_t size = 0;
    ~Mapping()
    {
        if (addr)
            ::munmap(addr, size);
    }
};

} // namespace

std::string TraceCache::cacheFileFor(const std::string &reportPath) const
{
    const std::string abs = absolutePath(reportPath);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(cacheHash(abs.data(), abs.size())));
    return m_dir + "/" + hex + ".pstc";
}

ReportPtr TraceCache::load(const std::string &reportPath, std::string *why) const
{
    auto miss = [&](std::string reason) -> ReportPtr {
        if (why)
            *why = std::move(reason);
        return nullptr;
    };
    struct stat src{};
    if (::stat(reportPath.c_str(), &src) != 0)
        return miss("no report");
    const std::string file = cacheFileFor(reportPath);
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return miss("no cache");
    struct stat st{};
    if (::fstat(fd, &st) != 0 || st.st_size <= 0) {
        ::close(fd);
        return miss("corrupt: empty cache file");
    }
    auto map = std::make_shared<Mapping>();
    map->size = size_t(st.st_size);
    map->addr = ::mmap(nullptr, map->size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (map->addr == MAP_FAILED) {
        map->addr = nullptr;
        return miss("cannot map cache");
    }
    CacheKey key{absolutePath(reportPath), uint64_t(src.st_size),
                 int64_t(src.st_mtim.tv_sec) * 1000000000 + src.st_mtim.tv_nsec};
    auto report = std::make_shared<Report>();
    std::string reason;
    const std::span<const char> bytes(static_cast<const char *>(map->addr), map->size);
    if (!decodeCache(bytes, key, map, *report, reason))
        return miss(reason);
    report->path = reportPath;
    report->fromCache = true;
    return report;
}

std::string TraceCache::save(const Report &report) const
{
    std::error_code ec;
    fs::create_directories(m_dir, ec);
    if (ec)
        return m_dir + ": cannot create cache directory: " + ec.message();
    CacheKey key{absolutePath(report.path), report.fileSize, report.fileMtimeNs};
    return writeFileAtomically(cacheFileFor(report.path), encodeCache(report, key));
}

} // namespace ps::core::trace
