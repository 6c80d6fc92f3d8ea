#pragma once
// Out of memory while analysing one report (a hostile file's numbers asking for more than the
// machine has) fails that report alone: its error names the report, and the others go on. The
// loader does the same while reading (traceloader.cpp); this covers what runs after the load
// (breakdown, phases, stats, digests).

#include "core/trace/store/report.h"

#include <functional>
#include <new>
#include <string>
#include <vector>

namespace ps::core::trace {

// Test seam: when set, called with each report as its analysis starts, so a test can make one
// report's analysis throw std::bad_alloc without a real multi-GB allocation. Nothing in the
// product sets it; set it before, and clear it after, the analyses it should see.
inline std::function<void(const Report &)> analysisProbe;

inline std::string outOfMemoryWhileAnalysing(const Report &report)
{
    return report.path + ": out of memory while analysing it (the file may be corrupt)";
}

// Runs analyse() for `report`. Returns false, with `error` naming the report, when it ran out
// of memory; what analyse() had done by then is the caller's to discard.
template <class F> bool analyseReport(const Report &report, std::string &error, F &&analyse)
{
    try {
        if (analysisProbe)
            analysisProbe(report);
        analyse();
        return true;
    } catch (const std::bad_alloc &) {
        error = outOfMemoryWhileAnalysing(report);
        return false;
    }
}

// For an analysis over several reports at once (stats summed over the reports): runs
// analyse(reports). When that runs out of memory, each report is tried alone; those that run
// out again leave `reports`, with their errors appended to `errors`, and analyse() runs once
// more over the rest. The retries cost nothing unless memory ran out.
template <class F> void analyseReports(std::vector<ReportPtr> &reports, std::vector<std::string> &errors, F &&analyse)
{
    try {
        for (const ReportPtr &r : reports)
            if (analysisProbe)
                analysisProbe(*r);
        analyse(reports);
        return;
    } catch (const std::bad_alloc &) {
    }
    std::vector<ReportPtr> kept;
    for (const ReportPtr &r : reports) {
        std::string error;
        if (analyseReport(*r, error, [&] { analyse(std::vector<ReportPtr>{r}); }))
            kept.push_back(r);
        else
            errors.push_back(std::move(error));
    }
    reports = std::move(kept);
    analyse(reports);
}

} // namespace ps::core::trace
