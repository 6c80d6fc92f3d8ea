#pragma once
// One rank, one report. Run folders keep earlier runs' files (RLinf and nsys output folders,
// collect.sh fetching every *.psdigest), and a report copied into two subfolders is found twice:
// counted as they are, the run has a rank too many and every median and lag shifts. Reports that
// claim the same place in a run (format, run, worker group, scope, rank, step, part) are resolved
// here, the same way for the CLI's loads, the streamed collectives and the desktop:
//   - a byte-identical copy that claims the same rank (or, without ranks, has the same name), in
//     any folder, is left out (the oldest file kept), naming the one kept;
//   - reports whose recorded starts lie apart by more than either one's span are different runs:
//     the one farthest from the run's other reports is left out and named;
//   - otherwise (one run, two files) the newer file is kept and the other named.
// Reports with no events (an Ascend analysis.db) and reports made in memory (no file size) are
// never left out.

#include "core/trace/read/traceloader.h"
#include "core/trace/store/report.h"

#include <span>
#include <string>
#include <vector>

namespace ps::core::trace {

struct LeftOutReport
{
    size_t index = 0; // into the reports given
    size_t keptIndex = 0;
    std::string reason; // names both files and why this one was left out
};

// The reports to leave out, in index order. Reads identity, meta, file size and extent only, so it
// serves outlines and the shells a streamed analysis keeps (reportsource.h: withoutEvents).
std::vector<LeftOutReport> duplicateReports(std::span<const ReportPtr> reports);

// `reports` without those `duplicateReports` leaves out; their reasons appended to `reasons`.
// `leftOut`, when given, gets each left-out report's path and reason (LoadResult::leftOut).
std::vector<ReportPtr> withoutDuplicates(std::span<const ReportPtr> reports, std::vector<std::string> &reasons,
                                         std::vector<LoadFailure> *leftOut = nullptr);

} // namespace ps::core::trace
