#include "core/trace/persist/mappedfile.h"

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

const char *fileTypeName(unsigned mode)
{
    return S_ISFIFO(mode)   ? "a FIFO"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISLNK(mode)  ? "a symbolic link"
                            : "not a file";
}

int openRegularFile(const std::string &path, std::string &error)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        error = std::strerror(errno);
        return -1;
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        error = std::string("not a regular file (") + fileTypeName(st.st_mode) + ")";
        ::close(fd);
        return -1;
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        error = std::strerror(errno);
        ::close(fd);
        return -1;
    }
    return fd;
}

MapStatus mapFile(const std::string &path, Mapping &map, std::string &error)
{
    const int fd = openRegularFile(path, error);
    if (fd < 0)
        return MapStatus::CannotOpen;
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
