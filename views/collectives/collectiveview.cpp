#include "views/collectives/collectiveview.h"

#include "core/common/canceltoken.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/store/report.h"
#include "views/scene/timeformat.h"

#include <algorithm>

namespace ps::views {

using namespace ps::core::trace;
using ps::core::CancelToken;
namespace an = ps::core::analysis;

namespace {

uint64_t eventKey(EventRef ref)
{
    return (uint64_t(ref.track) << 32) | ref.index;
}

// The index entries and wait spans of every member, by report.
void indexMembers(CollectiveView &v, const std::vector<int64_t> &offsets)
{
    const size_t reports = v.reports.size();
    v.waits.assign(reports, {});
    v.byEvent.assign(reports, {});
    for (size_t r = 0; r < reports; ++r)
        v.waits[r].resize(v.reports[r]->layout().tracks().size());
    const auto &instances = v.analysis.instances;
    for (size_t i = 0; i < instances.size(); ++i) {
        for (const an::CollectiveMember &m : instances[i].members) {
            if (m.report >= reports)
                continue;
            v.byEvent[m.report].emplace_back(eventKey(m.event), uint32_t(i));
            if (!instances[i].complete || m.waitNs <= 0 || m.event.track >= v.waits[m.report].size())
                continue;
            v.waits[m.report][m.event.track].push_back(
                {m.startNs - offsets[m.report], m.waitNs, m.event.index, uint32_t(i)});
        }
    }
    for (size_t r = 0; r < reports; ++r) {
        std::sort(v.byEvent[r].begin(), v.byEvent[r].end());
        for (auto &track : v.waits[r])
            std::sort(track.begin(), track.end(),
                      [](const WaitSpan &a, const WaitSpan &b) { return a.ownStart < b.ownStart; });
    }
}

} // namespace

int CollectiveView::reportOf(int entry, const Report *report) const
{
    if (entry < 0 || size_t(entry) >= reportOfEntry.size())
        return -1;
    const int r = reportOfEntry[size_t(entry)];
    return r >= 0 && reports[size_t(r)] == report ? r : -1;
}

std::optional<size_t> CollectiveView::instanceOf(int entry, const Report *report, EventRef ref) const
{
    const int r = reportOf(entry, report);
    if (r < 0)
        return std::nullopt;
    const auto &index = byEvent[size_t(r)];
    const uint64_t key = eventKey(ref);
    const auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(key, uint32_t(0)));
    if (it == index.end() || it->first != key)
        return std::nullopt;
    return it->second;
}

std::span<const WaitSpan> CollectiveView::waitsIn(int report, uint32_t track, int64_t ownFrom, int64_t ownTo) const
{
    if (report < 0 || size_t(report) >= waits.size() || track >= waits[size_t(report)].size())
        return {};
    const auto &spans = waits[size_t(report)][track];
    // A wait never outlasts its kernel, and kernels of one stream do not overlap: a span starting
    // before ownFrom can reach into the window only if it is the last one before it.
    auto first =
        std::partition_point(spans.begin(), spans.end(), [ownFrom](const WaitSpan &s) { return s.ownStart < ownFrom; });
    if (first != spans.begin())
        --first;
    const auto last =
        std::partition_point(first, spans.end(), [ownTo](const WaitSpan &s) { return s.ownStart < ownTo; });
    return {spans.data() + (first - spans.begin()), size_t(last - first)};
}

namespace {
const an::CollectiveAnalysis &analysisOf(const RunAnalysesPtr &source)
{
    static const an::CollectiveAnalysis none;
    return source ? source->run.analysis : none;
}
} // namespace

CollectiveView::CollectiveView(RunAnalysesPtr from) : source(std::move(from)), analysis(analysisOf(source))
{
}

CollectiveViewPtr collectiveViewOf(const RunAnalysesPtr &from, const CancelToken &cancel)
{
    if (!from || from->scene == nullptr || from->scene->overlay || from->reports.empty()) {
        auto v = std::make_shared<CollectiveView>(nullptr);
        v->unavailable =
            from && from->scene && from->scene->overlay
                ? QStringLiteral("The step overlay stacks one rank's steps: collectives are matched across "
                                 "ranks (clear the overlay to see them).")
                : QStringLiteral("No reports open.");
        return v;
    }
    const RunAnalyses &analyses = *from;
    auto v = std::make_shared<CollectiveView>(from);
    v->entries = analyses.analysed;
    v->offsets = analyses.run.offsets;
    v->reportOfEntry.assign(analyses.scene->entries.size(), -1);
    for (size_t r = 0; r < analyses.analysed.size(); ++r) {
        v->reportOfEntry[size_t(analyses.analysed[r])] = int(r);
        v->reports.push_back(analyses.reports[r].get());
    }
    for (size_t r = 0; r < analyses.reports.size(); ++r)
        if (!hasEvents(*analyses.reports[r]) && r < v->analysis.reportRanks.size() && v->analysis.reportRanks[r] < 0)
            ++v->needsEvents;
    indexMembers(*v, v->offsets);
    for (const an::CollectiveInstance &inst : v->analysis.instances) {
        int64_t total = 0;
        for (const an::CollectiveMember &m : inst.members)
            total += m.waitNs;
        v->medianWait.push_back(inst.complete ? an::medianWaitNs(inst) : 0);
        v->totalWait.push_back(inst.complete ? total : 0);
    }
    return cancel.cancelled() ? nullptr : v;
}

CollectiveViewPtr buildCollectiveView(const std::shared_ptr<const TimelineScene> &scene,
                                      const std::vector<int> &entries, const CancelToken &cancel, size_t memberBudget)
{
    const RunAnalysesPtr analyses = analyseRun(scene, entries, cancel, memberBudget);
    return analyses ? collectiveViewOf(analyses, cancel) : nullptr;
}

QString bandwidthText(const std::optional<double> &gbps)
{
    if (!gbps)
        return QStringLiteral("-");
    return QStringLiteral("%1 GB/s").arg(*gbps, 0, 'f', *gbps >= 10 ? 0 : 1);
}

QString instanceSummary(const an::CollectiveInstance &inst)
{
    if (!inst.complete)
        return QStringLiteral("incomplete: %1").arg(QString::fromStdString(inst.problem));
    QString text = QStringLiteral("rank %1 arrived last; the others waited %2 (median); transfer %3")
                       .arg(inst.lastRank)
                       .arg(formatDuration(an::medianWaitNs(inst)), formatDuration(inst.transferNs));
    if (inst.busbwGBps)
        text += QStringLiteral("; busbw %1").arg(bandwidthText(inst.busbwGBps));
    return text;
}

QString matchMethodExplained(an::MatchMethod method)
{
    const std::string_view name = an::matchMethodName(method);
    QString how;
    switch (method) {
    case an::MatchMethod::Sequence:
        how = QStringLiteral("by the sequence number (Seq) PyTorch's profiler records for each collective");
        break;
    case an::MatchMethod::GroupOrder:
        how = QStringLiteral("by their order within the process group, k-th with k-th on every rank");
        break;
    case an::MatchMethod::StreamOrder:
        how = QStringLiteral("by their order on each rank's NCCL stream, k-th kernel with k-th (the trace names "
                             "no process group or sequence: nsys exports without NCCL's NVTX payload)");
        break;
    case an::MatchMethod::HcclGroup:
        how = QStringLiteral("by their order within the HCCL communication group (Ascend)");
        break;
    case an::MatchMethod::NvtxPayload:
        how = QStringLiteral("by the communicator and sequence NCCL's NVTX ranges carry");
        break;
    }
    return QStringLiteral("%1: instances matched across ranks %2")
        .arg(QString::fromUtf8(name.data(), qsizetype(name.size())), how);
}

QString busbwMissingWhy()
{
    return QStringLiteral("Bus bandwidth needs the bytes each collective moved; \"-\" where the trace does not say "
                          "them (kernels known by name only, as in nsys exports without NCCL's NVTX payload).");
}

QString instanceTitle(const an::CollectiveInstance &inst)
{
    const int ranks = inst.groupSize >= 0 ? inst.groupSize : int(inst.members.size());
    const std::string_view method = an::matchMethodName(inst.method);
    return QStringLiteral("%1 #%2 in group %3 (%4 ranks, %5)")
        .arg(QString::fromStdString(inst.op))
        .arg(inst.index)
        .arg(QString::fromStdString(inst.group))
        .arg(ranks)
        .arg(QString::fromUtf8(method.data(), qsizetype(method.size())));
}

} // namespace ps::views
