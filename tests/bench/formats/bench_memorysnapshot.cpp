// Opening a CUDA memory snapshot against Python's own pickle.load of the same file. The snapshot
// (makememorysnapshot.py: torch's keys, shared frames lists, 47-bit addresses) is written once
// into /tmp by /usr/bin/python3; then, each in a fresh child process:
//   python  pickle.load(f) (time and peak RSS as Python's resource module reports them);
//   decode  the pickle decoder alone;
//   open    readMemorySnapshot: decoding plus the snapshot model (what `trace memory` does before
//           the analysis), and analyzeSnapshot after it.
//
//   bench_memorysnapshot [MiB=500] [path=/tmp/ps_bench_snapshot.pickle] [keep]
//
// Target (issue 26): open <= 0.5x pickle.load's time, peak RSS <= 1.5x the file size.

#include "core/analysis/memory/memorypeak.h"
#include "core/trace/formats/pickledecoder.h"
#include "core/trace/formats/torchmemoryfiles.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace ps::core;
using Clock = std::chrono::steady_clock;

namespace {

struct Run
{
    double seconds = -1;
    double rssMiB = 0;
};

double since(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Runs `work` in a child; its seconds come back through a pipe, its peak RSS from wait4().
template <typename F> Run inChild(F work)
{
    int fds[2];
    if (::pipe(fds) != 0)
        return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        const double s = work();
        if (::write(fds[1], &s, sizeof s) != sizeof s)
            ::_exit(1);
        ::_exit(0);
    }
    ::close(fds[1]);
    Run r;
    if (::read(fds[0], &r.seconds, sizeof r.seconds) != sizeof r.seconds)
        r.seconds = -1;
    ::close(fds[0]);
    int status = 0;
    struct rusage ru
    {
    };
    ::wait4(pid, &status, 0, &ru);
    r.rssMiB = double(ru.ru_maxrss) / 1024.0;
    return r;
}

Run pythonLoad(const std::string &path)
{
    const std::string cmd = "/usr/bin/python3 -c \"import pickle,time,resource,sys; t=time.perf_counter(); "
                            "pickle.load(open(sys.argv[1],'rb')); "
                            "print(time.perf_counter()-t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\" " +
                            path;
    Run r;
    if (FILE *p = ::popen(cmd.c_str(), "r")) {
        double kib = 0;
        if (std::fscanf(p, "%lf %lf", &r.seconds, &kib) != 2)
            r.seconds = -1;
        r.rssMiB = kib / 1024.0;
        ::pclose(p);
    }
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    const long mib = argc > 1 ? std::atol(argv[1]) : 500;
    const std::string path = argc > 2 ? argv[2] : "/tmp/ps_bench_snapshot.pickle";
    const bool keep = argc > 3 && std::string(argv[3]) == "keep";
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0) {
        const std::string cmd =
            "/usr/bin/python3 " PS_BENCH_DIR "/makememorysnapshot.py " + path + " " + std::to_string(mib * 16400);
        std::printf("writing %s (%ld MiB) with python3...\n", path.c_str(), mib);
        if (std::system(cmd.c_str()) != 0 || ::stat(path.c_str(), &st) != 0) {
            std::fprintf(stderr, "cannot write the snapshot\n");
            return 1;
        }
    }
    const double fileMiB = double(st.st_size) / (1 << 20);
    const Run py = pythonLoad(path);
    const Run decode = inChild([&] {
        const auto t0 = Clock::now();
        trace::formats::PickleDoc doc;
        const std::string e = trace::formats::decodePickleFile(path, doc);
        if (!e.empty())
            std::fprintf(stderr, "%s\n", e.c_str());
        const double s = since(t0);
        std::printf("  decoded document: %.0f MiB in arenas\n", double(doc.residentBytes()) / (1 << 20));
        std::fflush(stdout);
        return s;
    });
    const Run open = inChild([&] {
        const auto t0 = Clock::now();
        trace::MemorySnapshot s;
        const std::string e = trace::readMemorySnapshot(path, s);
        if (!e.empty())
            std::fprintf(stderr, "%s\n", e.c_str());
        const double opened = since(t0);
        const auto t1 = Clock::now();
        const analysis::SnapshotMemory m = analysis::analyzeSnapshot(s);
        std::printf("  %zu trace entries, %zu stacks, peak %lld B; analysis %.2f s\n",
                    s.traces.empty() ? 0 : s.traces[0].size(), s.stackCount(),
                    m.devices.empty() ? 0LL : (long long)m.devices[0].peakBytes, since(t1));
        std::fflush(stdout);
        return opened;
    });
    std::printf("file %.0f MiB\n", fileMiB);
    std::printf("python pickle.load  %.2f s  peak RSS %.0f MiB (%.2fx the file)\n", py.seconds, py.rssMiB,
                py.rssMiB / fileMiB);
    std::printf("decode only         %.2f s  peak RSS %.0f MiB (%.2fx the file)  %.2fx python's time\n", decode.seconds,
                decode.rssMiB, decode.rssMiB / fileMiB, decode.seconds / py.seconds);
    std::printf("open (decode+model) %.2f s  peak RSS %.0f MiB (%.2fx the file)  %.2fx python's time\n", open.seconds,
                open.rssMiB, open.rssMiB / fileMiB, open.seconds / py.seconds);
    if (!keep)
        std::remove(path.c_str());
    return 0;
}
