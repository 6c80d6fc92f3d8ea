// collectivesOfOpened (collectivestream.h): a large run matched without holding its reports.

#include "core/analysis/phases/collectivestream.h"
#include "core/analysis/collectives/collectiveextract.h"

#include "core/analysis/collectives/collectiveinput.h"
#include "core/analysis/collectives/collectivesink.h"
#include "core/common/canceltoken.h"
#include "core/common/parallelfor.h"
#include "core/trace/alignment.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/duplicatereports.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/store/report.h"

namespace ps::core::analysis {

namespace {

struct Taken
{
    trace::ReportPtr shell;
    detail::ReportCollectives collectives;
    std::vector<PhaseOccurrence> phases;
};

} // namespace

RunCollectives
collectivesOfOpened(size_t count, const std::function<trace::ReportPtr(size_t)> &open,
                    const std::function<std::vector<PhaseOccurrence>(const trace::Report &)> &occurrencesOf,
                    int threads, std::vector<trace::ReportPtr> &opened, const core::CancelToken *cancel,
                    const CollectiveQuery &query)
{
    std::vector<Taken> taken(count);
    parallelFor(count, std::max(1, threads), [&](size_t i) {
        if (cancel && cancel->cancelled())
            return;
        const trace::ReportPtr r = open(i);
        if (!r)
            return;
        taken[i] = {trace::withoutEvents(*r), detail::extractCollectives(*r, /*inPlace=*/false, cancel),
                    occurrencesOf(*r)};
    }); // each report released here, once taken
    std::erase_if(taken, [](const Taken &t) { return !t.shell; });
    // One rank, one report, as every load decides it (duplicatereports.h).
    std::vector<trace::ReportPtr> shells;
    for (const Taken &t : taken)
        shells.push_back(t.shell);
    const std::vector<trace::LeftOutReport> leftOut = trace::duplicateReports(shells);
    std::vector<bool> drop(taken.size(), false);
    for (const trace::LeftOutReport &l : leftOut)
        drop[l.index] = true;
    std::vector<detail::ReportCollectives> collectives;
    std::vector<std::vector<PhaseOccurrence>> phases;
    opened.clear();
    for (size_t i = 0; i < taken.size(); ++i)
        if (!drop[i]) {
            opened.push_back(std::move(taken[i].shell));
            collectives.push_back(std::move(taken[i].collectives));
            phases.push_back(std::move(taken[i].phases));
        }
    std::vector<Taken>().swap(taken);
    if (cancel && cancel->cancelled()) {
        RunCollectives stopped;
        stopped.cancelled = true;
        return stopped;
    }
    const trace::AlignResult aligned = trace::alignReports(opened, trace::AlignSpec{});
    RunCollectives run = detail::matchWithPhases(collectives, aligned.offsets, std::move(phases), query, cancel);
    for (const trace::LeftOutReport &l : leftOut)
        run.analysis.notes.push_back(l.reason);
    return run;
}

RunCollectives collectivesOfDigests(const std::vector<std::string> &files, int threads,
                                    std::vector<std::string> &errors, std::vector<trace::ReportPtr> &opened,
                                    const core::CancelToken *cancel, const CollectiveQuery &query)
{
    errors.assign(files.size(), {});
    return collectivesOfOpened(
        files.size(),
        [&](size_t i) {
            trace::ReportPtr r = trace::readDigestOutline(files[i], errors[i]);
            return r || !errors[i].empty() ? r : trace::readDigest(files[i], errors[i]);
        },
        [](const trace::Report &r) { return phaseOccurrencesOf(r, PhaseMapping::defaults()); }, threads, opened, cancel,
        query);
}

} // namespace ps::core::analysis
