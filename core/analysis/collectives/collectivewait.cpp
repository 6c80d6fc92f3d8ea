#include "core/analysis/collectives/collectivewait.h"
#include "core/analysis/collectives/collectiveextract.h"
#include "core/analysis/collectives/reportwaits.h"

#include "core/analysis/breakdown/workunions.h"
#include "core/analysis/collectives/collectivesink.h"
#include "core/common/bytefields.h"
#include "core/common/canceltoken.h"
#include "core/trace/alignment.h"
#include "core/trace/store/namedcollectives.h"
#include "core/trace/store/report.h"

#include <algorithm>

namespace ps::core::analysis {

namespace {

constexpr uint32_t kComputeBit = 1u << 0;
constexpr uint32_t kCommBit = 1u << 1;

// The time the breakdown counts as communication: communication work not under compute.
std::vector<Interval> exclusiveCommunication(std::span<const std::span<const Interval>> byClass)
{
    const std::array<std::span<const Interval>, 2> lists = {byClass[size_t(GpuWork::Compute)],
                                                            byClass[size_t(GpuWork::Communication)]};
    std::vector<Interval> out;
    sweepUnions(std::span<const std::span<const Interval>>(lists), [&](uint32_t mask, int64_t s, int64_t e) {
        if ((mask & kCommBit) && !(mask & kComputeBit))
            appendToUnion(out, 0, s, e);
    });
    return out;
}

bool recordSelected(const trace::EventStore &store, const trace::CollectiveRecord &c, const BreakdownFilter &f)
{
    if (!f.device && !f.stream)
        return true;
    if (c.event.track >= store.tracks().size())
        return false;
    const trace::Track &t = store.tracks()[c.event.track];
    return (!f.device || t.deviceId() == *f.device) && (!f.stream || t.streamId() == *f.stream);
}

// Appends the parts of [start, end) in `u` (a union in start order) to `out`.
void clipTo(std::span<const Interval> u, int64_t start, int64_t end, std::vector<Interval> &out)
{
    auto it = std::upper_bound(u.begin(), u.end(), start, [](int64_t v, const Interval &i) { return v < i.end; });
    for (; it != u.end() && it->start < end; ++it)
        if (std::min(end, it->end) > std::max(start, it->start))
            out.push_back({std::max(start, it->start), std::min(end, it->end)});
}

std::optional<CollectiveSummary> computeSummary(const trace::Report &, const trace::EventStore &events,
                                                const core::CancelToken *cancel, std::string &)
{
    return collectiveSummaryOf(events, WorkClassTable(events), {}, cancel);
}

// u64 record count, u64 piece count, then per record u64 pieces, then per piece i64 start, end.
std::string encodeSummary(const CollectiveSummary &s)
{
    std::string out;
    out.reserve(16 + 8 * s.records() + 16 * s.pieces.size());
    appendField(out, uint64_t(s.records()));
    appendField(out, uint64_t(s.pieces.size()));
    for (size_t i = 0; i < s.records(); ++i)
        appendField(out, uint64_t(s.first[i + 1] - s.first[i]));
    for (const Interval &p : s.pieces) {
        appendField(out, p.start);
        appendField(out, p.end);
    }
    return out;
}

bool decodeSummary(std::string_view bytes, CollectiveSummary &s, std::string &why)
{
    size_t pos = 0;
    uint64_t records = 0, pieces = 0;
    if (!takeField(bytes, pos, records) || !takeField(bytes, pos, pieces) || records > bytes.size() / 8 ||
        pieces > bytes.size() / 16 || 8 * records + 16 * pieces != bytes.size() - pos) {
        why = "its record and piece counts do not match its size";
        return false;
    }
    s.first.assign(1, 0);
    s.first.reserve(size_t(records) + 1);
    for (uint64_t i = 0; i < records; ++i) {
        uint64_t n = 0;
        takeField(bytes, pos, n);
        if (n > pieces - s.first.back()) {
            why = "record " + std::to_string(i) + " has more pieces than the section holds";
            return false;
        }
        s.first.push_back(s.first.back() + n);
    }
    if (s.first.back() != pieces) {
        why = "the records' pieces do not add up to the piece count";
        return false;
    }
    s.pieces.resize(size_t(pieces));
    for (Interval &p : s.pieces) {
        takeField(bytes, pos, p.start);
        takeField(bytes, pos, p.end);
        if (p.end < p.start) {
            why = "a piece ends before it starts";
            return false;
        }
    }
    return true;
}

} // namespace

std::span<const Interval> CollectiveSummary::of(size_t record) const
{
    if (record + 1 >= first.size())
        return {};
    return std::span<const Interval>(pieces).subspan(size_t(first[record]), size_t(first[record + 1] - first[record]));
}

const trace::SummaryKind<CollectiveSummary> kCollectiveSummary{kCollectiveSummaryTag, "collective summary",
                                                               &computeSummary, &encodeSummary, &decodeSummary};

std::optional<CollectiveSummary> collectiveSummaryOf(const trace::EventStore &store, const WorkClassTable &classes,
                                                     const BreakdownFilter &filter, const core::CancelToken *cancel)
{
    const std::span<const trace::CollectiveRecord> records = trace::collectivesOf(store);
    CollectiveSummary s;
    s.first.reserve(records.size() + 1);
    if (records.empty())
        return s;
    const bool ok = withGpuWorkUnions(store, classes, filter, cancel, [&](auto byClass, size_t) {
        const std::vector<Interval> comm = exclusiveCommunication(byClass);
        for (const trace::CollectiveRecord &c : records) {
            if (recordSelected(store, c, filter))
                clipTo(comm, c.start, c.end, s.pieces);
            s.first.push_back(s.pieces.size());
        }
    });
    if (!ok || (cancel && cancel->cancelled()))
        return std::nullopt;
    return s;
}

CommunicationSplit splitCommunication(int64_t communicationNs, const CollectiveSummary &summary,
                                      std::span<const MemberWait> waits)
{
    std::vector<Interval> waited;
    for (const MemberWait &w : waits)
        clipTo(summary.of(w.record), w.start, w.end, waited);
    std::sort(waited.begin(), waited.end(), [](const Interval &a, const Interval &b) { return a.start < b.start; });
    std::vector<Interval> united;
    for (const Interval &i : waited)
        appendToUnion(united, 0, i.start, i.end);
    const int64_t wait = std::clamp<int64_t>(measure(united), 0, std::max<int64_t>(0, communicationNs));
    return {wait, communicationNs - wait};
}

std::vector<std::vector<MemberWait>> memberWaitsByReport(const CollectiveAnalysis &a, std::span<const int64_t> offsets,
                                                         size_t reports)
{
    std::vector<std::vector<MemberWait>> out(reports);
    for (const CollectiveInstance &inst : a.instances) {
        if (!inst.complete)
            continue;
        for (const CollectiveMember &m : inst.members) {
            if (m.report >= reports || m.waitNs <= 0)
                continue;
            const int64_t own = m.startNs - (m.report < offsets.size() ? offsets[m.report] : 0);
            out[m.report].push_back({m.record, own, own + m.waitNs});
        }
    }
    return out;
}

RunWaits collectiveWaitsOfRun(std::span<const trace::ReportPtr> reports, const core::CancelToken *cancel)
{
    RunWaits out;
    const trace::AlignResult aligned = trace::alignReports(reports, trace::AlignSpec{});
    std::vector<detail::ReportCollectives> extracted = detail::extractAll(reports, cancel);
    detail::ReportWaits waits(aligned.offsets, reports.size());
    detail::InstanceSink *const sinks[] = {&waits};
    const CollectiveAnalysis a =
        detail::matchCollectives(extracted, aligned.offsets, CollectiveQuery::sinksOnly(), sinks, cancel);
    out.cancelled = a.cancelled || (cancel && cancel->cancelled());
    out.problems = a.errors;
    out.byReport = waits.take();
    return out;
}

std::optional<CommunicationSplit> wholeCommunicationSplit(const trace::Report &report, int64_t communicationNs,
                                                          std::span<const MemberWait> waits, std::string &error,
                                                          const core::CancelToken *cancel)
{
    if (waits.empty()) // nothing matched here: all of it is transfer, whatever the digest holds
        return CommunicationSplit{0, communicationNs};
    const auto summary = trace::summaryOf(report, kCollectiveSummary, error, cancel);
    if (!summary)
        return std::nullopt;
    if (summary->records() != trace::collectiveRecordCount(report)) {
        error = report.path + ": damaged digest: section COLL has " + std::to_string(summary->records()) +
                " collective records, the report " + std::to_string(trace::collectiveRecordCount(report));
        return std::nullopt;
    }
    return splitCommunication(communicationNs, *summary, waits);
}

} // namespace ps::core::analysis
