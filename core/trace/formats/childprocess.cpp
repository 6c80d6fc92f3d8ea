#include "core/trace/formats/childprocess.h"

#include "core/common/canceltoken.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>

extern char **environ;

namespace ps::core::trace::formats {

std::string findExecutable(const std::string &name)
{
    if (name.empty())
        return {};
    if (name.find('/') != std::string::npos)
        return ::access(name.c_str(), X_OK) == 0 ? name : std::string();
    const char *path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t at = 0;
    while (at <= dirs.size()) {
        const size_t end = std::min(dirs.find(':', at), dirs.size());
        // An empty PATH entry means the current folder. (Built with append: GCC 12 at -O3
        // misreports assigning a one-character literal here as overlapping memcpy, -Wrestrict.)
        std::string candidate = end > at ? dirs.substr(at, end - at) : std::string(1, '.');
        candidate.append(1, '/').append(name);
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        at = end + 1;
    }
    return {};
}

ChildResult runChild(const std::vector<std::string> &argv, const CancelToken *cancel,
                     const std::function<void(std::string_view)> &onOutput)
{
    ChildResult r;
    if (argv.empty()) {
        r.error = "no program";
        return r;
    }
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        r.error = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    std::vector<char *> args;
    for (const auto &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        r.error = argv[0] + ": cannot run: " + std::strerror(rc);
        return r;
    }
    r.started = true;
    char buf[4096];
    bool open = true;
    bool reaped = false;
    int status = 0;
    while (open) {
        if (cancel && cancel->cancelled() && !r.cancelled) {
            r.cancelled = true;
            ::kill(pid, SIGTERM);
            // Give it a moment to clean up, then make sure it is gone.
            for (int i = 0; i < 20 && !reaped; ++i) {
                reaped = ::waitpid(pid, &status, WNOHANG) == pid;
                if (!reaped)
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
            if (!reaped)
                ::kill(pid, SIGKILL);
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int n = ::poll(&p, 1, 100);
        if (n < 0 && errno != EINTR)
            break;
        if (n <= 0)
            continue;
        const ssize_t got = ::read(fds[0], buf, sizeof buf);
        if (got <= 0) {
            open = false;
            break;
        }
        const std::string_view chunk(buf, size_t(got));
        r.output.append(chunk);
        if (r.output.size() > 65536)
            r.output.erase(0, r.output.size() - 65536);
        if (onOutput)
            onOutput(chunk);
    }
    ::close(fds[0]);
    while (!reaped && ::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        r.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r.signal = WTERMSIG(status);
    return r;
}

} // namespace ps::core::trace::formats
