#include "core/common/atomicfile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ps::core {

std::string writeFileAtomically(const std::string &path, std::string_view content)
{
    std::string tmpl = path + ".XXXXXX";
    int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        return "cannot create " + tmpl + ": " + std::strerror(errno);
    // mkstemp creates 0600; user files should get the usual umask-derived mode.
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    const char *p = content.data();
    size_t left = content.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            std::string err = "cannot write " + tmpl + ": " + std::strerror(errno);
            ::close(fd);
            ::unlink(tmpl.c_str());
            return err;
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        std::string err = "cannot flush " + tmpl + ": " + std::strerror(errno);
        ::unlink(tmpl.c_str());
        return err;
    }
    if (::rename(tmpl.c_str(), path.c_str()) != 0) {
        std::string err = "cannot replace " + path + ": " + std::strerror(errno);
        ::unlink(tmpl.c_str());
        return err;
    }
    return {};
}

bool readWholeFile(const std::string &path, std::string &content, std::string &error, uint64_t maxBytes)
{
    // O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        error = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    struct stat st = {};
    std::string why;
    if (::fstat(fd, &st) != 0)
        why = "cannot read " + path + ": " + std::strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "cannot read " + path + ": not a regular file";
    else if (uint64_t(st.st_size) > maxBytes)
        why = "cannot read " + path + ": " + std::to_string(st.st_size) + " bytes, more than the " +
              std::to_string(maxBytes) + " this file may have";
    if (!why.empty()) {
        ::close(fd);
        error = why;
        return false;
    }
    content.assign(size_t(st.st_size), '\0');
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::read(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += size_t(n);
    }
    const bool short_read = done != content.size();
    ::close(fd);
    if (short_read) {
        error = "cannot read " + path + ": it changed while being read";
        return false;
    }
    return true;
}

} // namespace ps::core
