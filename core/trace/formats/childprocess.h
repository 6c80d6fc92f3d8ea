#pragma once
// Runs a program (no shell) with stdout and stderr captured through one pipe, polling a cancel
// token; on cancel the child is terminated (SIGTERM, then SIGKILL after a grace period).

#include "core/common/canceltoken.h"

#include <functional>
#include <string>
#include <vector>

namespace ps::core::trace::formats {

struct ChildResult
{
    bool started = false;
    bool cancelled = false;
    int exitCode = -1;  // when the child exited normally
    int signal = 0;     // when it was killed by a signal
    std::string output; // stdout and stderr, interleaved, truncated to the last 64 KiB
    std::string error;  // why it could not start
};

// `argv[0]` is the executable's path. `onOutput` sees each chunk as it arrives.
ChildResult runChild(const std::vector<std::string> &argv, const CancelToken *cancel,
                     const std::function<void(std::string_view)> &onOutput = {});

// The absolute path of `name` found on $PATH (or `name` itself when it contains a '/' and is
// executable); "" when none.
std::string findExecutable(const std::string &name);

} // namespace ps::core::trace::formats
