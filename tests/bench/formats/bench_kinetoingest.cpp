// Kineto JSON ingest on one core: a realistic trace (the keys and shapes of the HTA samples:
// cpu_op / user_annotation ranges, cuda_runtime calls, ac2g flows, kernels with grid/block,
// memcpy/memset, metadata, a trailing baseTimeNanoseconds) is generated into /tmp, then read by
// the Kineto reader and built into an EventStore in a child process, whose peak RSS the parent
// takes from wait4(). Baselines measured in the same run on the same file: a plain read() of it
// in 8 MiB blocks, and the event splitter alone (scan without JSON parsing).
//
//   bench_kinetoingest [MiB=500] [path=/tmp/ps_bench_kineto.json] [keep]
//
// Targets (issue 8): ingest >= 200 MB/s (Perfetto's published JSON ingest: 177 MB/s) and peak
// RSS <= 1.5x the input size.

#include "core/trace/formats/bytesource.h"
#include "core/trace/formats/kinetoreader.h"
#include "core/trace/formats/traceeventsplitter.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace ps::core::trace;
using Clock = std::chrono::steady_clock;

namespace {

const char *const kKernels[] = {
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
    "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
    "ampere_sgemm_128x64_tn",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, "
    "float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, "
    "unsigned int, float, 4>)",
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
};
const char *const kOps[] = {"aten::add", "aten::mm", "aten::mean", "aten::empty", "aten::copy_", "aten::linear"};

// Writes ~`bytes` of Kineto JSON; returns the size written.
size_t generate(const std::string &path, size_t bytes)
{
    std::FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) {
        std::perror(path.c_str());
        std::exit(1);
    }
    std::string out;
    out.reserve(size_t(8) << 20);
    out +=
        "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\"id\": 0, \"name\": \"NVIDIA A100-SXM4-80GB\", "
        "\"totalGlobalMem\": 85100068864, \"computeMajor\": 8, \"computeMinor\": 0, \"numSms\": 108}\n  ],\n"
        "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, \"world_size\": 8},\n  \"record_shapes\": 1,\n"
        "  \"traceEvents\": [\n";
    const int pid = 493459, tid = 493459;
    double ts = 4203669603018.756; // relative µs, as newer Kineto writes them
    size_t written = 0;
    uint64_t corr = 1, ext = 1;
    char line[2048];
    auto put = [&](int n) {
        out.append(line, size_t(n));
        if (out.size() > (size_t(8) << 20)) {
            written += std::fwrite(out.data(), 1, out.size(), f);
            out.clear();
        }
    };
    int step = 0;
    bool first = true;
    while (written + out.size() < bytes) {
        // One training step: an annotation around many ops.
        const double stepStart = ts;
        const int opsPerStep = 200;
        for (int op = 0; op < opsPerStep; ++op, ++ext, ++corr) {
            const char *opName = kOps[op % 6];
            const char *kernel = kKernels[op % 4];
            put(std::snprintf(
                line, sizeof line,
                "%s  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d,\n"
                "    \"ts\": %.3f, \"dur\": %.3f,\n    \"args\": {\n      \"External id\": %llu,"
                "\"Record function id\": 0, \"Ev Idx\": %llu, \"Input Dims\": [[128, 1024], [1024, 1024]], "
                "\"Input type\": [\"float\", \"float\"]\n    }\n  }",
                first ? "" : ",\n", opName, pid, tid, ts, 21.337, (unsigned long long)ext, (unsigned long long)ext));
            first = false;
            put(std::snprintf(line, sizeof line,
                              ",\n  {\n    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
                              "\"pid\": %d, \"tid\": %d,\n    \"ts\": %.3f, \"dur\": %.3f,\n    \"args\": {\n"
                              "      \"External id\": %llu, \"cbid\": 211, \"correlation\": %llu\n    }\n  }",
                              pid, tid, ts + 3.101, 5.25, (unsigned long long)ext, (unsigned long long)corr));
            put(std::snprintf(line, sizeof line,
                              ",\n  {\n    \"ph\": \"s\", \"id\": %llu, \"pid\": %d, \"tid\": %d, \"ts\": %.3f,\n"
                              "    \"cat\": \"ac2g\", \"name\": \"ac2g\"\n  }",
                              (unsigned long long)corr, pid, tid, ts + 3.101));
            const bool copy = op % 25 == 0;
            if (copy) {
                put(std::snprintf(
                    line, sizeof line,
                    ",\n  {\n    \"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pageable -> "
                    "Device)\", \"pid\": 0, \"tid\": 7,\n    \"ts\": %.3f, \"dur\": %.3f,\n    \"args\": {\n"
                    "      \"External id\": %llu, \"device\": 0, \"context\": 1, \"stream\": 7, "
                    "\"correlation\": %llu, \"bytes\": 4194304, \"memory bandwidth (GB/s)\": 11.9\n    }\n  }",
                    ts + 9.5, 351.2, (unsigned long long)ext, (unsigned long long)corr));
            } else {
                put(std::snprintf(
                    line, sizeof line,
                    ",\n  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7,\n"
                    "    \"ts\": %.3f, \"dur\": %.3f,\n    \"args\": {\n      \"External id\": %llu,\n"
                    "      \"queued\": 0, \"device\": 0, \"context\": 1,\n      \"stream\": 7, "
                    "\"correlation\": %llu,\n      \"registers per thread\": 32,\n      \"shared memory\": 0,\n"
                    "      \"blocks per SM\": 2.370370,\n      \"warps per SM\": 9.481481,\n"
                    "      \"grid\": [256, 1, 1],\n      \"block\": [128, 1, 1],\n"
                    "      \"est. achieved occupancy %%\": 15\n    }\n  }",
                    kernel, ts + 9.5, 14.08, (unsigned long long)ext, (unsigned long long)corr));
            }
            put(std::snprintf(line, sizeof line,
                              ",\n  {\n    \"ph\": \"f\", \"id\": %llu, \"pid\": 0, \"tid\": 7, \"ts\": %.3f,\n"
                              "    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  }",
                              (unsigned long long)corr, ts + 9.5));
            ts += 25.013;
        }
        put(std::snprintf(line, sizeof line,
                          ",\n  {\n    \"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%d\", "
                          "\"pid\": %d, \"tid\": %d,\n    \"ts\": %.3f, \"dur\": %.3f,\n    \"args\": {\n"
                          "      \"External id\": %llu\n    }\n  }",
                          step++, pid, tid, stepStart - 1.0, ts - stepStart + 2.0, (unsigned long long)ext++));
    }
    out += ",\n  {\n    \"name\": \"process_name\", \"ph\": \"M\", \"ts\": 4203669603018.756, \"pid\": 493459, "
           "\"tid\": 0,\n    \"args\": {\n      \"name\": \"python3\"\n    }\n  }\n  ],\n"
           "  \"traceName\": \"bench.pt.trace.json\",\n  \"displayTimeUnit\": \"ms\",\n"
           "  \"baseTimeNanoseconds\": 1735632360000000000\n}\n";
    written += std::fwrite(out.data(), 1, out.size(), f);
    std::fclose(f);
    return written;
}

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

struct ChildRun
{
    double wall = -1; // seconds, measured in the child around the work
    double cpu = 0;   // user + system seconds of the whole child (includes fork/exit, ~ms)
    long peakRss = 0; // bytes
};

// Runs `fn` in a child process. The CPU time matters on this shared machine: wall time there
// depends on what else runs, one core's throughput is bytes / CPU seconds.
template <typename Fn> ChildRun inChild(Fn fn)
{
    int fds[2];
    if (pipe(fds) != 0)
        std::exit(1);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const double s = fn();
        (void)!write(fds[1], &s, sizeof s);
        _exit(0);
    }
    close(fds[1]);
    double s = -1;
    (void)!read(fds[0], &s, sizeof s);
    close(fds[0]);
    int status = 0;
    struct rusage ru
    {
    };
    wait4(pid, &status, 0, &ru);
    const double cpu =
        double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    return {s, cpu, ru.ru_maxrss * 1024L};
}

} // namespace

int main(int argc, char **argv)
{
    const size_t mib = argc > 1 ? size_t(std::atol(argv[1])) : 500;
    const std::string path = argc > 2 ? argv[2] : "/tmp/ps_bench_kineto.json";
    const auto g0 = Clock::now();
    const size_t size = generate(path, mib << 20);
    const auto g1 = Clock::now();
    const double mb = double(size) / 1e6;
    std::printf("generated %s: %.1f MB in %.1f s\n", path.c_str(), mb, seconds(g0, g1));
    std::fflush(stdout); // the children would print an inherited buffer again

    // Baseline 1: read the file in 8 MiB blocks (page cache warm after generation).
    const ChildRun read = inChild([&] {
        const auto t0 = Clock::now();
        ps::core::trace::formats::ByteSource src;
        if (!src.open(path).empty())
            std::exit(1);
        std::string buf(size_t(8) << 20, '\0');
        size_t total = 0;
        while (size_t n = src.read(buf.data(), buf.size()))
            total += n;
        return total == size ? seconds(t0, Clock::now()) : -1.0;
    });
    // Baseline 2: the splitter alone (string/bracket scan, no JSON parsing).
    const ChildRun split = inChild([&] {
        const auto t0 = Clock::now();
        ps::core::trace::formats::ByteSource src;
        if (!src.open(path).empty())
            std::exit(1);
        ps::core::trace::formats::TraceEventSplitter split;
        size_t batches = 0;
        const std::string err = split.run(src, [&](std::string_view) { return ++batches > 0; });
        return err.empty() ? seconds(t0, Clock::now()) : -1.0;
    });
    // The ingest: read + parse + EventStore build, one thread.
    size_t events = 0;
    const ChildRun ingest = inChild([&] {
        const auto t0 = Clock::now();
        StoreBuilder b;
        ReportMeta meta;
        ReadContext ctx;
        ctx.threads = 1;
        const std::string err = KinetoReader().read(path, b, meta, ctx);
        if (!err.empty()) {
            std::fprintf(stderr, "%s\n", err.c_str());
            return -1.0;
        }
        EventStore store = std::move(b).build();
        const double s = seconds(t0, Clock::now());
        std::printf("ingested %zu events (%zu kernels, %zu api, %zu ranges) into %.1f MB resident\n",
                    store.eventCount(), store.count(TrackKind::Kernel), store.count(TrackKind::CudaApi),
                    store.count(TrackKind::NvtxPushPop), double(store.residentBytes()) / 1e6);
        std::fflush(stdout);
        return s;
    });
    (void)events;
    if (read.wall < 0 || split.wall < 0 || ingest.wall < 0) {
        std::printf("FAILED\n");
        return 1;
    }
    std::printf("%-16s %10s %10s %12s\n", "", "MB/s wall", "MB/s CPU", "peak RSS MB");
    for (auto [label, r] : {std::pair{"baseline read", read}, {"splitter only", split}, {"ingest", ingest}})
        std::printf("%-16s %10.1f %10.1f %12.1f\n", label, mb / r.wall, mb / r.cpu, double(r.peakRss) / 1e6);
    std::printf("ingest vs read: %.3fx (CPU), vs splitter: %.3fx (CPU); target >= 200 MB/s on one core\n",
                read.cpu / ingest.cpu, split.cpu / ingest.cpu);
    std::printf("ingest peak RSS = %.3fx the input (target <= 1.5x)\n", double(ingest.peakRss) / double(size));
    if (!(argc > 3 && std::string(argv[3]) == "keep"))
        std::remove(path.c_str());
    return 0;
}
