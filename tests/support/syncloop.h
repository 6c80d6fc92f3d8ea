#pragma once
// Per-rank PyTorch profiler (Kineto) JSON traces of a synchronous data-parallel loop, written
// with the real schema, and the collective figures they must yield. A generator of the tests'
// own (not the demo): each step is an `update_actor` range (as verl's marked_timer names it)
// around a compute kernel, a world allreduce, a second compute kernel and an allgather in groups
// of four. As in real synchronous training, a collective ends on every member when the last one
// arrives plus the transfer time, so a late rank shows as the others' wait inside the NCCL
// kernel, and every rank's next step starts together. Header-only.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace ps::test {

struct PlantedDelay
{
    int rank = 0;
    int firstStep = 0, lastStep = 0; // inclusive
    bool beforeAllgather = false;    // late in the second compute (allgather group) or the first (allreduce)
    int64_t extraNs = 0;
};

struct SyncLoopSpec
{
    int ranks = 8;
    int steps = 16;
    int groupSize = 4; // the allgather groups: ranks [0..3], [4..7], ...
    int64_t computeNs = 30'000'000, compute2Ns = 2'000'000;
    int64_t allreduceTransferNs = 5'000'000, allgatherTransferNs = 1'500'000;
    int64_t allreduceNelems = 25'000'000; // Float: 100 MB
    int64_t allgatherInNelems = 4'000'000;
    bool withSeq = false; // newer PyTorch writes `Seq`
    std::vector<PlantedDelay> delays;
    int64_t originNs = 1'764'000'000'000'000'000; // baseTimeNanoseconds
};

// What one collective instance must come out as.
struct ExpectedInstance
{
    std::string group, op;
    int step = 0;
    int lastRank = -1;
    std::map<int, int64_t> waitNs; // by rank
    int64_t transferNs = 0;
    uint64_t bytes = 0;
    double busbwGBps = 0;
};

class SyncLoopWriter
{
public:
    explicit SyncLoopWriter(SyncLoopSpec spec) : m_s(std::move(spec)) {}

    // Writes rank-<r>.pt.trace.json for every rank into `dir`; returns the expected instances.
    std::vector<ExpectedInstance> write(const std::string &dir)
    {
        m_events.assign(size_t(m_s.ranks), {});
        std::vector<ExpectedInstance> expected;
        int64_t t = 1'000'000; // ns after the origin
        for (int step = 0; step < m_s.steps; ++step)
            t = writeStep(step, t, expected);
        for (int r = 0; r < m_s.ranks; ++r)
            writeFile(dir + "/rank-" + std::to_string(r) + ".pt.trace.json", r);
        return expected;
    }

    std::string groupName(int rank) const { return std::to_string(1 + rank / m_s.groupSize); }
    std::vector<int> groupRanks(int rank) const
    {
        std::vector<int> g(size_t(m_s.groupSize));
        std::iota(g.begin(), g.end(), rank / m_s.groupSize * m_s.groupSize);
        return g;
    }

private:
    int64_t delayOf(int rank, int step, bool beforeAllgather) const
    {
        int64_t d = 0;
        for (const PlantedDelay &p : m_s.delays)
            if (p.rank == rank && step >= p.firstStep && step <= p.lastStep && p.beforeAllgather == beforeAllgather)
                d += p.extraNs;
        return d;
    }
    // A small, deterministic spread so that unaffected steps have a last rank too.
    static int64_t jitter(int rank, int step) { return int64_t((rank * 7 + step * 3) % 11) * 20'000; }

    static std::string rankList(const std::vector<int> &r)
    {
        std::string s = "[";
        for (size_t i = 0; i < r.size(); ++i)
            s += (i ? ", " : "") + std::to_string(r[i]);
        return s + "]";
    }
    static std::string us(int64_t ns)
    {
        char b[40];
        std::snprintf(b, sizeof b, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
        return b;
    }

    void kernel(int rank, const std::string &name, int64_t start, int64_t end, int stream, const std::string &extra)
    {
        const int corr = ++m_corr;
        m_events[size_t(rank)] +=
            ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": " +
            std::to_string(1000 + rank) + ", \"tid\": " + std::to_string(1000 + rank) +
            ", \"ts\": " + us(start - 20'000) +
            ", \"dur\": 5.000, \"args\": {\"correlation\": " + std::to_string(corr) +
            ", \"External id\": " + std::to_string(corr) + "}}";
        m_events[size_t(rank)] +=
            ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" + name + "\", \"pid\": " + std::to_string(rank) +
            ", \"tid\": " + std::to_string(stream) + ", \"ts\": " + us(start) + ", \"dur\": " + us(end - start) +
            ", \"args\": {\"External id\": " + std::to_string(corr) + ", \"device\": " + std::to_string(rank) +
            ", \"stream\": " + std::to_string(stream) + ", \"correlation\": " + std::to_string(corr) + extra + "}}";
    }
    void range(int rank, const std::string &cat, const std::string &name, int64_t start, int64_t end)
    {
        m_events[size_t(rank)] += ",\n{\"ph\": \"X\", \"cat\": \"" + cat + "\", \"name\": \"" + name +
                                  "\", \"pid\": " + std::to_string(1000 + rank) +
                                  ", \"tid\": " + std::to_string(1000 + rank) + ", \"ts\": " + us(start) +
                                  ", \"dur\": " + us(end - start) + ", \"args\": {}}";
    }
    std::string commArgs(const std::string &op, const std::string &pg, const std::string &desc,
                         const std::vector<int> &ranks, int64_t in, int64_t out, int64_t seq) const
    {
        std::string a = ", \"Collective name\": \"" + op + "\", \"In msg nelems\": " + std::to_string(in) +
                        ", \"Out msg nelems\": " + std::to_string(out) +
                        ", \"Group size\": " + std::to_string(ranks.size()) +
                        ", \"dtype\": \"Float\", \"In split size\": \"[]\", "
                        "\"Out split size\": \"[]\", \"Process Group Name\": \"" +
                        pg + "\", \"Process Group Description\": \"" + desc + "\", \"Process Group Ranks\": \"" +
                        rankList(ranks) + "\"";
        if (m_s.withSeq)
            a += ", \"Seq\": " + std::to_string(seq);
        return a;
    }

    // One collective over `members`, each arriving at its `arrive`; returns its end.
    int64_t collective(const std::vector<int> &members, const std::map<int, int64_t> &arrive, const std::string &op,
                       const std::string &kernelName, const std::string &pg, const std::string &desc, int64_t in,
                       int64_t out, int64_t transfer, int64_t seq, int step, std::vector<ExpectedInstance> &expected)
    {
        int last = members.front();
        for (int r : members)
            if (arrive.at(r) > arrive.at(last))
                last = r;
        const int64_t end = arrive.at(last) + transfer;
        ExpectedInstance e{pg, op, step, last, {}, transfer, 0, 0};
        const int n = int(members.size());
        e.bytes = uint64_t(op == "allgather" ? out : in) * 4;
        const double factor = op == "allreduce" ? 2.0 * (n - 1) / n : double(n - 1) / n;
        e.busbwGBps = double(e.bytes) / double(transfer) * factor;
        for (int r : members) {
            e.waitNs[r] = arrive.at(last) - arrive.at(r);
            kernel(r, kernelName, arrive.at(r), end, 20, commArgs(op, pg, desc, members, in, out, seq));
        }
        expected.push_back(e);
        return end;
    }

    int64_t writeStep(int step, int64_t t0, std::vector<ExpectedInstance> &expected)
    {
        std::vector<int> world(size_t(m_s.ranks));
        std::iota(world.begin(), world.end(), 0);
        std::map<int, int64_t> arrive;
        for (int r : world) {
            const int64_t end = t0 + 100'000 + m_s.computeNs + jitter(r, step) + delayOf(r, step, false);
            kernel(r, "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn", t0 + 100'000, end, 7, "");
            arrive[r] = end + 10'000;
        }
        const int64_t arEnd =
            collective(world, arrive, "allreduce",
                       "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "0", "default_pg",
                       m_s.allreduceNelems, m_s.allreduceNelems, m_s.allreduceTransferNs, step + 1, step, expected);
        int64_t stepEnd = arEnd;
        for (int g = 0; g < m_s.ranks; g += m_s.groupSize) {
            std::map<int, int64_t> arrive2;
            const std::vector<int> members = groupRanks(g);
            for (int r : members) {
                const int64_t end = arEnd + 50'000 + m_s.compute2Ns + jitter(r, step + 1) + delayOf(r, step, true);
                kernel(r, "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float> >",
                       arEnd + 50'000, end, 7, "");
                arrive2[r] = end + 10'000;
            }
            const int64_t agEnd = collective(
                members, arrive2, "allgather", "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                groupName(g), "undefined", m_s.allgatherInNelems, m_s.allgatherInNelems * m_s.groupSize,
                m_s.allgatherTransferNs, step + 1, step, expected);
            stepEnd = std::max(stepEnd, agEnd);
        }
        for (int r : world) {
            range(r, "user_annotation", "ProfilerStep#" + std::to_string(step), t0, stepEnd + 20'000);
            range(r, "user_annotation", "update_actor", t0 + 10'000, stepEnd + 10'000);
        }
        return stepEnd + 200'000;
    }

    void writeFile(const std::string &path, int rank) const
    {
        std::string pgConfig = "[{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", \"backend_config\": \"cuda:nccl\", "
                               "\"pg_size\": " +
                               std::to_string(m_s.ranks) + ", \"ranks\": " + rankList([&] {
                                   std::vector<int> w(size_t(m_s.ranks));
                                   std::iota(w.begin(), w.end(), 0);
                                   return w;
                               }()) +
                               "}";
        for (int g = 0; g < m_s.ranks; g += m_s.groupSize)
            pgConfig += ", {\"pg_name\": \"" + groupName(g) +
                        "\", \"pg_desc\": \"undefined\", \"backend_config\": "
                        "\"cuda:nccl\", \"pg_size\": " +
                        std::to_string(m_s.groupSize) + ", \"ranks\": " + rankList(groupRanks(g)) + "}";
        pgConfig += "]";
        std::ofstream f(path);
        f << "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": " << rank
          << ", \"name\": \"NVIDIA H100 80GB HBM3\"}], \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " << rank
          << ", \"world_size\": " << m_s.ranks << ", \"pg_count\": " << 1 + m_s.ranks / m_s.groupSize
          << ", \"pg_config\": " << pgConfig << ", \"nccl_version\": \"2.21.5\"}, \"record_shapes\": 1, "
          << "\"traceEvents\": [\n{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " << 1000 + rank
          << ", \"tid\": 0, \"args\": {\"name\": \"python3\"}}" << m_events[size_t(rank)]
          << "\n], \"traceName\": \"rank-" << rank << ".pt.trace.json\", \"displayTimeUnit\": \"ms\", "
          << "\"baseTimeNanoseconds\": " << m_s.originNs << "}\n";
    }

    SyncLoopSpec m_s;
    std::vector<std::string> m_events;
    int m_corr = 0;
};

} // namespace ps::test
