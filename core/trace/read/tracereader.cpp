#include "core/trace/read/tracereader.h"

#include "core/trace/formats/formatreaders.h"
#include "core/trace/formats/formatutil.h"

#include "core/trace/nsys/nsysreader.h"
#include "core/trace/persist/digest.h"
#include "core/trace/persist/mappedfile.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>

#include <cerrno>
#include <cstring>
#include <mutex>

namespace ps::core::trace {

struct ReaderRegistry::Impl
{
    mutable std::mutex mutex;
    std::vector<std::shared_ptr<const TraceReader>> readers;
};

ReaderRegistry::ReaderRegistry() : d(std::make_shared<Impl>())
{
    d->readers.push_back(std::make_shared<NsysReader>());
    // rocpd, Ascend, Kineto and .nsys-rep; added later, so probed before the nsys reader, whose
    // probe accepts any SQLite file.
    addFormatReaders(*this);
}

ReaderRegistry &ReaderRegistry::instance()
{
    static ReaderRegistry registry;
    return registry;
}

void ReaderRegistry::add(std::shared_ptr<const TraceReader> reader)
{
    std::lock_guard lock(d->mutex);
    d->readers.insert(d->readers.begin(), std::move(reader));
}

std::vector<std::shared_ptr<const TraceReader>> ReaderRegistry::readers() const
{
    std::lock_guard lock(d->mutex);
    return d->readers;
}

namespace {

bool matches(const NamePattern &p, const std::string &lowerName, NameScope scope)
{
    return (scope == NameScope::Given || p.inFolders) && ::fnmatch(p.glob.c_str(), lowerName.c_str(), 0) == 0;
}

} // namespace

bool ReaderRegistry::isReportName(std::string_view path, NameScope scope) const
{
    const std::string name = formats::lowerFileName(path);
    if (isDigestPath(name))
        return true;
    for (const auto &r : readers())
        for (const NamePattern &p : r->namePatterns())
            if (matches(p, name, scope))
                return true;
    return false;
}

std::vector<std::string> ReaderRegistry::namePatterns() const
{
    std::vector<std::string> globs{"*" + std::string(kDigestSuffix)};
    for (const auto &r : readers())
        for (const NamePattern &p : r->namePatterns())
            if (std::find(globs.begin(), globs.end(), p.glob) == globs.end())
                globs.push_back(p.glob);
    return globs;
}

bool ReaderRegistry::holdsManyReports(std::string_view path) const
{
    const std::string name = formats::lowerFileName(path);
    for (const auto &r : readers())
        if (r->holdsManyReports())
            for (const NamePattern &p : r->namePatterns())
                if (matches(p, name, NameScope::Given))
                    return true;
    return false;
}

std::shared_ptr<const TraceReader> ReaderRegistry::readerFor(const std::string &path, std::string *error) const
{
    std::string why;
    const int fd = openRegularFile(path, why); // a FIFO would block a plain open forever
    if (fd < 0) {
        if (error)
            *error = path + ": cannot open: " + why;
        return nullptr;
    }
    char buf[4096];
    size_t got = 0;
    for (ssize_t n; got < sizeof buf && (n = ::read(fd, buf + got, sizeof buf - got)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        got += size_t(n);
    }
    ::close(fd);
    const std::string_view head(buf, got);
    if (head.empty()) {
        if (error)
            *error = path + ": empty file (0 bytes); expected a trace export (nsys .sqlite, rocpd/Ascend .db, Kineto "
                            ".json)";
        return nullptr;
    }
    for (const auto &r : readers())
        if (r->probe(path, head))
            return r;
    if (error)
        *error = path + ": not a recognised trace; expected an Nsight Systems SQLite export (.sqlite) or another "
                        "supported format";
    return nullptr;
}

} // namespace ps::core::trace
