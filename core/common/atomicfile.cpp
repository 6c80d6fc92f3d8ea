#include "core/common/atomicfile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
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

bool readWholeFile(const std::string &path, std::string &content, std::string &error)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) {
        error = "cannot read " + path;
        return false;
    }
    content = ss.str();
    return true;
}

} // namespace ps::core
