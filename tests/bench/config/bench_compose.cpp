// Benchmark of the config engine on verl's ppo_trainer (18 files): the in-process composition
// and the whole `profstudio-cli compose` process, each against a baseline measured in the same
// run (these machines are shared and noisy, so ratios travel better than absolute times):
//   - in process: compose vs. just reading + parsing the same files with yaml-cpp (YAML::LoadFile)
//   - process:    `profstudio-cli compose` vs. `/bin/true` and `profstudio-cli --version`
// Targets (issue 3): compose <= 5 ms in process, the whole process <= 30 ms. In process, the cold
// figure parses every file each time (what one CLI run does); the warm one reuses the parsed files
// as the GUI does when it recomposes after an edit.
#include "core/config/composer.h"
#include "core/config/yamlemitter.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <set>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <typename F> double medianMs(int runs, F &&f)
{
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        auto t0 = Clock::now();
        f();
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return median(times);
}

// Runs argv with stdout/stderr to /dev/null; returns the exit status.
int runProcess(const std::vector<std::string> &argv)
{
    std::vector<char *> args;
    for (const auto &a : argv)
        args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

int main()
{
    using namespace ps::core::config;
    const std::string dir = PS_TESTDATA_DIR "/configs/verl/verl/trainer/config";
    const std::string cli = PS_BIN_DIR "/profstudio-cli";
    ComposeOptions opts;
    opts.configDirs = {dir};
    opts.configName = "ppo_trainer";

    ComposeResult first = compose(opts);
    std::set<std::string> files;
    for (const ConfigSource &s : first.sources)
        files.insert(s.file);
    std::printf("verl ppo_trainer: %zu files merged (%zu distinct), %zu output bytes\n", first.sources.size(),
                files.size(), toYaml(first.config).size());

    const int inRuns = 200;
    // Warm the page cache and the allocator once.
    for (int i = 0; i < 5; ++i)
        compose(opts);
    double parseMs = medianMs(inRuns, [&] {
        for (const std::string &f : files) {
            YAML::Node n = YAML::LoadFile(f);
            (void)n;
        }
    });
    ComposeOptions cold = opts;
    cold.reuseParsedFiles = false;
    double coldMs = medianMs(inRuns, [&] {
        ComposeResult r = compose(cold);
        (void)r;
    });
    double composeMs = medianMs(inRuns, [&] {
        ComposeResult r = compose(opts);
        (void)r;
    });
    double composeEmitMs = medianMs(inRuns, [&] {
        ComposeResult r = compose(opts);
        std::string y = toYaml(r.config);
        (void)y;
    });
    std::printf("\nin process (median of %d):\n", inRuns);
    std::printf("  baseline yaml-cpp LoadFile of the %zu files  %8.3f ms\n", files.size(), parseMs);
    std::printf("  compose, files parsed every time (cold)    %8.3f ms  = %.2fx baseline\n", coldMs,
                coldMs / parseMs);
    std::printf("  compose, parsed files reused (warm)        %8.3f ms  = %.2fx baseline  (target <= 5 ms)\n",
                composeMs, composeMs / parseMs);
    std::printf("  compose + to_yaml                          %8.3f ms  = %.2fx baseline\n", composeEmitMs,
                composeEmitMs / parseMs);

    const int procRuns = 20;
    std::vector<std::string> composeArgv = {cli, "compose", "--config-dir", dir, "--config-name", "ppo_trainer"};
    if (runProcess(composeArgv) != 0) {
        std::fprintf(stderr, "profstudio-cli compose failed\n");
        return 1;
    }
    double trueMs = medianMs(procRuns, [&] { runProcess({"/bin/true"}); });
    double versionMs = medianMs(procRuns, [&] { runProcess({cli, "--version"}); });
    double processMs = medianMs(procRuns, [&] { runProcess(composeArgv); });
    std::printf("\nwhole process (median of %d):\n", procRuns);
    std::printf("  baseline /bin/true                         %8.3f ms\n", trueMs);
    std::printf("  baseline profstudio-cli --version          %8.3f ms\n", versionMs);
    std::printf("  profstudio-cli compose ppo_trainer         %8.3f ms  = %.2fx /bin/true, %.2fx --version  "
                "(target <= 30 ms; Hydra ~1300 ms)\n",
                processMs, processMs / trueMs, processMs / versionMs);
    return 0;
}
