#pragma once
// Report identity from file names and layouts, and grouping of reports:
//   run -> worker group or role -> rank -> capture range (step).
//
// Recognised names (spec/trace-formats.md, profiling-config.md):
//   RLinf   rlinf_profile_<Group>_<rank>_<PID>[...].sqlite     group, rank, pid
//   verl    worker_process_<PID>.<RID>.sqlite (Ray logs/nsight/) group "worker_process", pid, step=RID
//   verl    [<role>_]<host>_worker_process_<PID>[.<RID>].sqlite (relocate_results, >= 0.9)
//           role (as group), host, pid, step=RID
//   verl    [<role>_][<scope>_][step<S>_]rank<r>[-of-<W>][_tp<i>-pp<i>-dp<i>-cp<i>]_pid<PID>_<stamp>
//           [_part<k>|_mb<a>[-<b>]].json.gz (torch, >= 0.9)  role, scope, step, rank, world size, pid
//   nsys    report<N>.sqlite                                      step=N
// Any path component like "step_3"/"step3"/"global_step_3" sets the step when the name has none,
// and a Ray session folder ("session_..."), or else the parent folder, names the run.

#include "core/trace/persist/mappedfile.h"
#include "core/trace/store/report.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

ReportIdentity identityFromPath(std::string_view path);

// The folder the collect script gathers into (collectscript.h) holds this marker: below it,
// <host>/<the folder's path on that node>/<report>.
inline constexpr const char *kCollectedMarker = ".profstudio-collected";
// identityFromPath() of a file on disk, and when the file lies in a collected folder tree, the
// tree is the run (its folder's name) and the folder below it the host: reports gathered from
// many nodes open as one run.
ReportIdentity identityOfFile(const std::string &path);

// A digest's identity as it recorded it when it was made (its group, rank, step, and the pid of
// the report it was made from) wins over the one its current file name gives: a digest renamed
// or swapped to another rank's name keeps its own rank. Returns what differed, e.g. "rank 5 (its
// name) vs 3 (recorded)", "" when nothing did.
std::string applyRecordedIdentity(ReportIdentity &id, const ReportIdentity &recorded);

// The identity the report recorded (ReportMeta::processIdentities, where its processes agree)
// wins over the one its name gave: rank and world size replace the name's, the recorded worker
// group replaces a name's generic one ("worker_process"). What the name said that the recording
// contradicts goes to id.nameDisagrees ("rank 5 (its name) vs 3 (RANK, recorded)").
void applyLaunchIdentity(ReportIdentity &id, const ReportMeta &meta);

// Fills what the path did not give from the data (pid when the report has one process, host).
void completeIdentity(ReportIdentity &id, const ReportMeta &meta);

// The one place a report is finished, however it was made (read from its file, decoded from the
// cache or from a digest): the file's size and modification time from `stamp`, and the identity
// the caller set (from the path, or recorded in a digest) completed from the report's metadata.
void finishReport(Report &report, const FileStamp &stamp);

struct RankNode
{
    std::optional<int> rank;
    std::vector<size_t> reports; // indices into the input, ordered by step then path
};
struct GroupNode
{
    std::string group;
    std::vector<RankNode> ranks; // ordered by rank (unknown last)
};
struct RunNode
{
    std::string run;
    std::vector<GroupNode> groups; // ordered by name
};

// Groups reports by run, group, rank; capture ranges of one rank stay in step order.
std::vector<RunNode> groupReports(std::span<const ReportPtr> reports);

} // namespace ps::core::trace
