#include "core/trace/tracereader.h"

#include "core/trace/formats/formatreaders.h"

#include "core/trace/nsysreader.h"

#include <cerrno>
#include <cstring>
#include <fstream>
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

std::shared_ptr<const TraceReader> ReaderRegistry::readerFor(const std::string &path, std::string *error) const
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (error)
            *error = path + ": cannot open: " + std::strerror(errno);
        return nullptr;
    }
    char buf[4096];
    in.read(buf, sizeof buf);
    const std::string_view head(buf, size_t(in.gcount()));
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
