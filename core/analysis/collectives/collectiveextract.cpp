// Step 1 of the matching (collectiveinput.h): one report's collective records sorted into lists
// by shape, in one pass over its records with the names looked up once per report.

#include "core/analysis/collectives/collectiveextract.h"
#include "core/analysis/collectives/collectiveinput.h"
#include "core/common/canceltoken.h"
#include "core/common/parallelfor.h"
#include "core/common/threads.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/store/namedcollectives.h"
#include "core/trace/store/report.h"

#include <algorithm>
#include <numeric>
#include <thread>
#include <unordered_map>

namespace ps::core::analysis::detail {

using trace::CollectiveRecord;
using trace::CollectiveSource;
using trace::EventStore;

namespace {

// What decides a record's communicator, by the store's name ids: records alike go to one list.
struct ShapeKey
{
    CollectiveSource source;
    trace::NameId group, ranks, desc;
    int32_t size, peer;
    uint32_t stream;
    bool operator==(const ShapeKey &) const = default;
};

struct ShapeKeyHash
{
    size_t operator()(const ShapeKey &k) const
    {
        uint64_t h = uint64_t(k.source) * 0x9E3779B97F4A7C15ULL;
        for (uint64_t v : {uint64_t(k.group), uint64_t(k.ranks), uint64_t(k.desc), uint64_t(uint32_t(k.size)),
                           uint64_t(uint32_t(k.peer)), uint64_t(k.stream)})
            h = (h ^ v) * 0x100000001B3ULL;
        return size_t(h ^ (h >> 29));
    }
};

// A shape's list as the records are taken: indexes into the report's records (in place) or
// copies (held), and whether they come in order.
struct ShapeBuild
{
    std::vector<uint32_t> indexes;
    std::unique_ptr<HeldRecords> held;
    size_t count = 0;
    int64_t lastStart = INT64_MIN, lastSeq = INT64_MIN, minStart = INT64_MAX;
    uint32_t stream = 0;
    bool startSorted = true, seqSorted = true, allSeq = true;
    RecordRun run;
    bool isRun = true; // so far the records lie one after another (RecordRun)

    void note(const CollectiveRecord &c)
    {
        startSorted = startSorted && c.start >= lastStart;
        seqSorted = seqSorted && c.seq >= lastSeq;
        allSeq = allSeq && c.seq >= 0;
        lastStart = c.start;
        lastSeq = c.seq;
        minStart = std::min(minStart, c.start);
        ++count;
    }
    // Whether record k (the count-th of the shape, with its op and bytes) continues the run. With
    // the store (records read in place), its kernel's times must be the record's, since a run is
    // read from the track's columns.
    void noteRun(const EventStore *s, const CollectiveRecord &c, size_t k, uint32_t op, uint64_t bytes);
};

void ShapeBuild::noteRun(const EventStore *s, const CollectiveRecord &c, size_t k, uint32_t op, uint64_t bytes)
{
    if (!isRun)
        return;
    const uint32_t i = uint32_t(count - 1);
    if (i == 0)
        run = {c.event, uint32_t(k), op, bytes, c.seq < 0 ? -1 : c.seq};
    isRun = k <= UINT32_MAX && c.event.track == run.first.track && c.event.index == run.first.index + i &&
            k == run.firstRecord + i && op == run.op && bytes == run.bytes &&
            (run.firstSeq < 0 ? c.seq < 0 : c.seq == run.firstSeq + i);
    if (isRun && s) {
        const bool onTrack = c.event.track < s->tracks().size() && c.event.index < s->track(c.event.track).size();
        isRun = onTrack && s->track(c.event.track).start(c.event.index) == c.start &&
                s->track(c.event.track).end(c.event.index) == c.end;
    }
}

class Extractor
{
public:
    // `names`: the store whose names the records use (the report's layout).
    Extractor(const EventStore &names, std::span<const CollectiveRecord> recs, bool inPlace, ReportCollectives &out)
        : m_s(names), m_recs(recs), m_inPlace(inPlace), m_out(out), m_vocabulary(names)
    {
    }
    void run(const core::CancelToken *cancel);

private:
    size_t shapeOf(const CollectiveRecord &c, const RecordVocabulary::Op &op); // index into m_out.shapes
    void take(size_t shape, size_t k, const CollectiveRecord &c, const RecordVocabulary::Op &op);
    void finish();

    const EventStore &m_s;
    std::span<const CollectiveRecord> m_recs;
    const bool m_inPlace;
    ReportCollectives &m_out;
    RecordVocabulary m_vocabulary;
    std::unordered_map<ShapeKey, size_t, ShapeKeyHash> m_shapes;
    std::vector<ShapeBuild> m_builds; // per shape
    bool m_oneShape = true;           // every record so far in shape 0: no index list needed yet
};

size_t Extractor::shapeOf(const CollectiveRecord &c, const RecordVocabulary::Op &op)
{
    const bool p2p = op.kind == CollectiveKind::SendRecv;
    const bool byName = c.source == CollectiveSource::KernelName;
    const ShapeKey k{c.source,    c.groupName,       c.groupRanks,          c.groupDesc,
                     c.groupSize, p2p ? c.peer : -2, byName ? c.stream : 0u};
    auto [it, fresh] = m_shapes.try_emplace(k, m_out.shapes.size());
    if (!fresh)
        return it->second;
    RecordShape &s = m_out.shapes.emplace_back();
    s.source = c.source;
    s.hasGroup = c.groupName != trace::kNoName;
    s.group = m_s.name(c.groupName);
    s.desc = m_s.name(c.groupDesc);
    s.ranks = m_s.name(c.groupRanks);
    s.size = c.groupSize;
    s.peer = k.peer;
    // Without the report's path, which a reading adds: in place, the shapes are kept with the
    // store, which reports of other paths may share.
    s.place = std::string(m_s.name(c.op)) + " kernel at " + std::to_string(c.start) + " ns (group \"" + s.group + "\")";
    m_builds.emplace_back().stream = c.stream;
    if (!m_inPlace)
        m_builds.back().held = std::make_unique<HeldRecords>();
    return it->second;
}

void Extractor::take(size_t shape, size_t k, const CollectiveRecord &c, const RecordVocabulary::Op &op)
{
    ShapeBuild &b = m_builds[shape];
    b.note(c);
    const uint64_t bytes = m_vocabulary.bytesOf(c, op);
    b.noteRun(m_inPlace ? &m_s : nullptr, c, k, op.index, bytes);
    if (!m_inPlace) {
        b.held->push_back({c.event, c.start, c.end, c.seq, bytes, uint32_t(k), op.index});
        return;
    }
    if (shape != 0 && m_oneShape) { // a second shape: shape 0 had every record before this one
        m_oneShape = false;
        m_builds[0].indexes.resize(k);
        std::iota(m_builds[0].indexes.begin(), m_builds[0].indexes.end(), 0u);
    }
    if (!m_oneShape)
        b.indexes.push_back(uint32_t(k));
}

// Each shape's list, and the report's NCCL streams numbered by their first collective (kernels
// known by name only are matched by order per stream).
void Extractor::finish()
{
    std::vector<std::pair<int64_t, uint32_t>> firsts; // (first start, stream) of streams known by name
    for (size_t i = 0; i < m_out.shapes.size(); ++i)
        if (m_out.shapes[i].source == CollectiveSource::KernelName)
            firsts.emplace_back(m_builds[i].minStart, m_builds[i].stream);
    std::sort(firsts.begin(), firsts.end());
    for (size_t i = 0; i < m_out.shapes.size(); ++i) {
        ShapeBuild &b = m_builds[i];
        RecordShape &shape = m_out.shapes[i];
        if (shape.source == CollectiveSource::KernelName)
            shape.streamOrdinal =
                int(std::lower_bound(firsts.begin(), firsts.end(), std::pair{b.minStart, b.stream}) - firsts.begin());
        std::unique_ptr<RecordSource> list;
        if (m_inPlace) {
            auto inPlace = std::make_unique<StoreRecords>(
                nullptr, nullptr,
                m_oneShape ? nullptr : std::make_shared<const std::vector<uint32_t>>(std::move(b.indexes)),
                m_recs.size());
            if (b.isRun && b.count > 0)
                inPlace->setRun(b.run);
            list = std::move(inPlace);
        } else if (b.isRun && b.count > 0) { // only the times need holding
            std::vector<int64_t> start(b.count), end(b.count);
            std::vector<Observed> chunk(b.count);
            b.held->read(0, b.count, chunk.data());
            for (size_t r = 0; r < b.count; ++r) {
                start[r] = chunk[r].start;
                end[r] = chunk[r].end;
            }
            list = std::make_unique<HeldRun>(b.run, std::move(start), std::move(end));
        } else {
            list = std::move(b.held);
        }
        list->startSorted = b.startSorted;
        list->seqSorted = b.seqSorted;
        list->allSeq = b.allSeq;
        shape.records = std::move(list);
    }
    m_out.ops = m_vocabulary.ops();
}

void Extractor::run(const core::CancelToken *cancel)
{
    for (const trace::ProcessGroupInfo &g : m_s.processGroups())
        m_out.groups.push_back({std::string(m_s.name(g.name)), std::string(m_s.name(g.ranks)), g.size, g.isWorld != 0});
    // Records mostly repeat the shape of the one before: looked up only on a change.
    const CollectiveRecord *prev = nullptr;
    size_t shape = 0;
    for (size_t k = 0; k < m_recs.size(); ++k) {
        if (k % 65536 == 0 && cancel && cancel->cancelled())
            return;
        const CollectiveRecord &c = m_recs[k];
        const RecordVocabulary::Op &op = m_vocabulary.opOf(c);
        const bool sameShape = prev && c.op == prev->op && c.source == prev->source && c.groupName == prev->groupName &&
                               c.groupRanks == prev->groupRanks && c.groupDesc == prev->groupDesc &&
                               c.groupSize == prev->groupSize && c.peer == prev->peer && c.stream == prev->stream;
        if (!sameShape)
            shape = shapeOf(c, op);
        take(shape, k, c, op);
        prev = &c;
    }
    finish();
}

// The key of a store's records sorted into shapes (EventStore::derived).
const char kShapesKey = 0;

// The report's records sorted into shapes, in place: once per store, kept with it (a shape's
// index list is 4 bytes a record, none when every record has one shape), so that each analysis
// of the report (phase table, breakdown, Collectives tab, compare) reads the records only to match
// them. Null when cancelled.
std::shared_ptr<const ReportCollectives> shapesInPlace(const trace::Report &report, const core::CancelToken *cancel)
{
    // The records first: made on first use and kept with the store too, and derived() holds one
    // lock for every key.
    const std::span<const CollectiveRecord> records = trace::collectivesOf(*report.store);
    const auto made = report.store->derived(&kShapesKey, [&]() -> std::shared_ptr<const void> {
        auto out = std::make_shared<ReportCollectives>();
        out->records = records.size();
        Extractor(*report.store, records, true, *out).run(cancel);
        if (cancel && cancel->cancelled())
            return nullptr;
        return out;
    });
    return std::static_pointer_cast<const ReportCollectives>(made);
}

// A reading of the kept shapes for one report: its own path, rank and vocabulary.
ReportCollectives readingOf(const ReportCollectives &kept, const trace::Report &report)
{
    ReportCollectives out;
    out.path = report.path;
    out.rank = report.identity.rank;
    out.records = kept.records;
    out.groups = kept.groups;
    out.ops = kept.ops;
    auto vocabulary = std::make_shared<RecordVocabulary>(*report.store, kept.ops);
    for (const RecordShape &k : kept.shapes) {
        RecordShape &s = out.shapes.emplace_back();
        static_cast<ShapeFacts &>(s) = k;
        s.place = report.path + ": " + k.place;
        s.records = static_cast<const StoreRecords &>(*k.records).readingOf(report.store, vocabulary);
    }
    return out;
}

} // namespace

ReportCollectives extractCollectives(const trace::Report &report, bool inPlace, const core::CancelToken *cancel)
{
    if (inPlace && trace::hasEvents(report)) {
        const std::shared_ptr<const ReportCollectives> kept = shapesInPlace(report, cancel);
        return kept ? readingOf(*kept, report)
                    : ReportCollectives{report.path, {}, report.identity.rank, 0, {}, {}, {}};
    }
    ReportCollectives out;
    out.path = report.path;
    out.rank = report.identity.rank;
    const std::optional<trace::CollectiveRecords> records = trace::collectiveRecordsOf(report, out.error);
    if (!records)
        return out;
    out.records = records->records().size();
    Extractor(report.layout(), records->records(), false, out).run(cancel);
    for (RecordShape &s : out.shapes)
        s.place = report.path + ": " + s.place;
    return out;
}

std::vector<ReportCollectives> extractAll(std::span<const trace::ReportPtr> reports, const core::CancelToken *cancel,
                                          int threads)
{
    std::vector<ReportCollectives> out(reports.size());
    const int workers = threadsOr(threads, WorkKind::MemoryBound);
    parallelFor(reports.size(), workers, [&](size_t i) { out[i] = extractCollectives(*reports[i], true, cancel); });
    return out;
}

} // namespace ps::core::analysis::detail
