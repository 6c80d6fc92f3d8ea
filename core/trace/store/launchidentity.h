#pragma once
// Who a process is in a distributed run, from what its launcher put in its environment (and its
// command line), as a profiler recorded them: nsys META_DATA_CAPTURE, rocpd
// rocpd_info_process.environment, Kineto distributedInfo, Ascend RANK_DEVICE_MAP.
//
// Precedence (first family whose rank variable is set wins; its world size and local rank come
// from the same family, never mixed with another's):
//   1. torch / torchrun / verl  RANK, WORLD_SIZE, LOCAL_RANK (verl: RAY_LOCAL_RANK), GROUP_RANK
//      -- the ranks NCCL's communicators use, so the ones collectives are matched by;
//   2. Open MPI                 OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK
//   3. MPICH / PMI              PMI_RANK, PMI_SIZE, MPI_LOCALRANKID
//   4. Slurm                    SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_NODEID
// MPI before Slurm: under `mpirun` inside an allocation, SLURM_PROCID is the launcher daemon's
// (one per node), not the rank. The node rank falls back to SLURM_NODEID whatever the family
// (it names the node, not the task). The worker group is verl's WG_PREFIX, else torchrun's
// ROLE_NAME (not its "default"), else a `--role NAME` on the command line.
// A value that is not a number in [0, 2^31), or a rank not below its world size, is not used:
// it becomes a problem naming where it was recorded, the variable and its value.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ps::core::trace {

// One identity field and what it was read from: a variable ("RANK"), or a table or key
// ("distributedInfo.rank").
template <typename T> struct Recorded
{
    T value{};
    std::string from;
    bool operator==(const Recorded &) const = default;
};

struct LaunchIdentity
{
    std::optional<Recorded<int>> rank, worldSize, localRank, nodeRank;
    std::optional<Recorded<std::string>> group;
    bool empty() const { return !rank && !worldSize && !localRank && !nodeRank && !group; }
    bool operator==(const LaunchIdentity &) const = default;
};

using EnvironmentVariable = std::pair<std::string, std::string>; // name, value

struct LaunchReading
{
    LaunchIdentity identity;
    std::vector<std::string> problems; // "<where>: RANK=\"x\" is not a rank (...)"
};

// The identity a process's recorded environment and command line (argv, the command first)
// give. `where` locates the problems (e.g. "run.sqlite: META_DATA_CAPTURE PROCESS_0").
LaunchReading launchIdentityOf(std::span<const EnvironmentVariable> environment,
                               std::span<const std::string> commandLine, std::string_view where);

// One value as a rank-like number in [0, 2^31): nullopt for text, signs, spaces or overflow.
std::optional<int> parseRankNumber(std::string_view text);

// One process's recorded identity in a report (ReportMeta::processIdentities).
struct ProcessIdentity
{
    uint32_t pid = 0;  // 0 when the recording does not say (nsys records a launched process as PID 0)
    std::string where; // what recorded it, e.g. "META_DATA_CAPTURE PROCESS_0", "rocpd_info_process pid 28"
    LaunchIdentity launch;
    bool operator==(const ProcessIdentity &) const = default;
};

// The report's own identity from its processes': each field the processes that state it agree
// on. Contradictory ranks (or groups) leave that field out and add a problem naming both.
LaunchIdentity reportLaunchIdentity(std::span<const ProcessIdentity> processes, std::vector<std::string> *problems);

// "3 (RANK, recorded)" style text of a field, "" when absent.
std::string recordedText(const std::optional<Recorded<int>> &field);
std::string recordedText(const std::optional<Recorded<std::string>> &field);

} // namespace ps::core::trace
