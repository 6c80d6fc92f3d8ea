#include "core/config/sourcemark.h"

#include <mutex>
#include <unordered_set>

namespace ps::core::config {

namespace {

// Names are never removed: a process reads a bounded set of files, and marks may outlive any
// one composition. Elements of an unordered_set keep their address across rehashing.
struct NameTable
{
    std::mutex mutex;
    std::unordered_set<std::string> names;
};

NameTable &nameTable()
{
    static NameTable *table = new NameTable; // never destroyed: marks may be read at exit
    return *table;
}

const std::string &emptyName()
{
    static const std::string empty;
    return empty;
}

} // namespace

FileName::FileName(std::string_view name)
{
    if (name.empty())
        return;
    NameTable &t = nameTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    m_name = &*t.names.emplace(name).first;
}

const std::string &FileName::str() const
{
    return m_name ? *m_name : emptyName();
}

std::string SourceMark::toString() const
{
    if (file.empty())
        return {};
    std::string s = file.str();
    if (line > 0) {
        s += ':' + std::to_string(line);
        if (column > 0)
            s += ':' + std::to_string(column);
    }
    return s;
}

} // namespace ps::core::config
