// Runs a libFuzzer target's LLVMFuzzerTestOneInput without libFuzzer, so the ordinary test build
// (g++, ASan+UBSan) exercises every harness: each seed as it is, then deterministic mutations of
// the seeds (bit flips, cut tails, repeated and overwritten runs) until the time is up. It finds
// what a broken harness or a regression on the seeds would show, not what coverage-guided fuzzing
// finds: that is tests/fuzz/run.sh with the clang build (-DPS_BUILD_FUZZ=ON).
//   smokedriver SECONDS SEED...   (a seed is a file, or a folder whose files are seeds)
// Exits 1 when no seed was found (a harness whose seeding broke must not pass), and aborts, as
// the sanitizers and the harnesses' own traps do, on any finding.

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {

// The input being run. When a sanitizer aborts (abort_on_error=1), a harness's own trap fires or
// the process faults, the signal handler writes it to $PS_FUZZ_FINDINGS/finding (else the working
// folder) with async-signal-safe calls only: a finding to replay and keep
// (tests/fuzz/regressions/TARGET/).
const std::string *g_input = nullptr;
char g_findingPath[4096];

void keepFinding(int sig)
{
    if (g_input) {
        const int fd = ::open(g_findingPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            ssize_t ignored = ::write(fd, g_input->data(), g_input->size());
            (void)ignored;
            ::close(fd);
        }
    }
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void keepFindingsOnSignals()
{
    const char *dir = std::getenv("PS_FUZZ_FINDINGS");
    std::snprintf(g_findingPath, sizeof g_findingPath, "%s/finding", dir && *dir ? dir : ".");
    for (const int sig : {SIGABRT, SIGILL, SIGSEGV, SIGBUS, SIGFPE})
        ::signal(sig, keepFinding);
}

std::vector<std::string> readSeeds(int argc, char **argv)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 2; i < argc; ++i) {
        std::error_code ec;
        if (fs::is_directory(argv[i], ec)) {
            for (const auto &e : fs::recursive_directory_iterator(argv[i], ec))
                if (e.is_regular_file())
                    files.push_back(e.path());
        } else if (fs::is_regular_file(argv[i], ec)) {
            files.emplace_back(argv[i]);
        }
    }
    std::sort(files.begin(), files.end()); // the same order, so the same mutations, every run
    std::vector<std::string> seeds;
    for (const auto &f : files) {
        std::ifstream in(f, std::ios::binary);
        seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return seeds;
}

void runOne(const std::string &input)
{
    g_input = &input;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.data()), input.size());
}

// One of a few mutations libFuzzer also makes, at a place the generator picks.
std::string mutate(std::string s, std::mt19937_64 &rng)
{
    if (s.empty())
        return std::string(1, char(rng()));
    auto at = [&] { return size_t(rng() % s.size()); };
    switch (rng() % 5) {
    case 0: // a few bit flips
        for (int i = 0, n = 1 + int(rng() % 4); i < n; ++i)
            s[at()] ^= char(1u << (rng() % 8));
        break;
    case 1: // the tail cut
        s.resize(at());
        break;
    case 2: { // an interesting value over a field
        static const uint64_t values[] = {0, 1, 0x7f, 0xff, 0x7fffffff, 0xffffffff, 0x7fffffffffffffff, ~0ull};
        const uint64_t v = values[rng() % std::size(values)];
        const size_t p = at(), n = std::min<size_t>(1u << (rng() % 4), s.size() - p);
        for (size_t i = 0; i < n; ++i)
            s[p + i] = char(v >> (8 * i));
        break;
    }
    case 3: { // a run repeated
        const size_t p = at(), n = std::min<size_t>(1 + rng() % 64, s.size() - p);
        s.insert(p, s.substr(p, n));
        break;
    }
    default: // a byte set
        s[at()] = char(rng());
        break;
    }
    return s;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s SECONDS SEED...\n", argv[0]);
        return 2;
    }
    keepFindingsOnSignals();
    const double seconds = std::stod(argv[1]);
    const std::vector<std::string> seeds = readSeeds(argc, argv);
    if (seeds.empty()) {
        std::fprintf(stderr, "%s: no seed found in the paths given\n", argv[0]);
        return 1;
    }
    for (const std::string &s : seeds)
        runOne(s);
    std::mt19937_64 rng(20261201);
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    size_t mutations = 0;
    while (std::chrono::steady_clock::now() < until) {
        runOne(mutate(seeds[rng() % seeds.size()], rng));
        ++mutations;
    }
    std::printf("%zu seeds and %zu mutations ran without a finding\n", seeds.size(), mutations);
    return 0;
}
