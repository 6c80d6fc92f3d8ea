#include "core/trace/mappedfile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ps::core::trace {

Mapping::~Mapping()
{
    if (addr)
        ::munmap(addr, size);
}

MapStatus mapFile(const std::string &path, Mapping &map, std::string &error)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        error = std::strerror(errno);
        return MapStatus::CannotOpen;
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || st.st_size <= 0) {
        ::close(fd);
        return MapStatus::Empty;
    }
    map.size = size_t(st.st_size);
    map.addr = ::mmap(nullptr, map.size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (map.addr == MAP_FAILED) {
        map.addr = nullptr;
        error = std::strerror(errno);
        return MapStatus::CannotMap;
    }
    return MapStatus::Mapped;
}

FileStamp fileStamp(const std::string &path)
{
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0)
        return {};
    return {uint64_t(st.st_size), int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, true};
}

} // namespace ps::core::trace
