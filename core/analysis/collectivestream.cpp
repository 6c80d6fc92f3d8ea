// collectivesOfOpened (collectivephases.h): a large run matched without holding its reports.

#include "core/analysis/collectiveinput.h"
#include "core/analysis/collectivephases.h"
#include "core/common/parallelfor.h"
#include "core/trace/alignment.h"
#include "core/trace/digest.h"
#include "core/trace/reportsource.h"
#include "core/trace/tracereader.h"

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
                    int threads, std::vector<trace::ReportPtr> &opened, const trace::CancelToken *cancel)
{
    std::vector<Taken> taken(count);
    parallelFor(count, std::max(1, threads), [&](size_t i) {
        if (cancel && cancel->cancelled())
            return;
        const trace::ReportPtr r = open(i);
        if (!r)
            return;
        taken[i] = {trace::withoutEvents(*r), detail::extractCollectives(*r, cancel), occurrencesOf(*r)};
    }); // each report released here, once taken
    std::vector<detail::ReportCollectives> collectives;
    std::vector<std::vector<PhaseOccurrence>> phases;
    opened.clear();
    for (Taken &t : taken)
        if (t.shell) {
            opened.push_back(std::move(t.shell));
            collectives.push_back(std::move(t.collectives));
            phases.push_back(std::move(t.phases));
        }
    std::vector<Taken>().swap(taken);
    RunCollectives out;
    const auto stopped = [cancel] { return cancel && cancel->cancelled(); };
    if (!stopped()) {
        const trace::AlignResult aligned = trace::alignReports(opened, trace::AlignSpec{});
        out.analysis = detail::matchCollectives(collectives, aligned.offsets, cancel, std::max(1, threads));
        if (!stopped() && out.analysis.errors.empty() && !out.analysis.instances.empty())
            out.phases = collectivesByPhase(aligned.offsets, out.analysis, std::move(phases));
    }
    out.cancelled = stopped();
    return out;
}

RunCollectives collectivesOfDigests(const std::vector<std::string> &files, int threads,
                                    std::vector<std::string> &errors, std::vector<trace::ReportPtr> &opened,
                                    const trace::CancelToken *cancel)
{
    errors.assign(files.size(), {});
    return collectivesOfOpened(
        files.size(),
        [&](size_t i) {
            trace::ReportPtr r = trace::readDigestOutline(files[i], errors[i]);
            return r || !errors[i].empty() ? r : trace::readDigest(files[i], errors[i]);
        },
        [](const trace::Report &r) { return phaseOccurrencesOf(r, PhaseMapping::defaults()); }, threads, opened,
        cancel);
}

} // namespace ps::core::analysis
