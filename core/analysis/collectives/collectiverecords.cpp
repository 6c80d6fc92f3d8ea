#include "core/analysis/collectives/collectiverecords.h"

#include "core/trace/store/namedcollectives.h"

#include <algorithm>

namespace ps::core::analysis::detail {

using trace::CollectiveRecord;
using trace::CollectiveSource;

namespace {

// What a run says of its records from the from-th on, placed on the shared axis when placed.
RunStretch stretchOf(const RecordRun &run, const Placement *place, size_t from)
{
    RunStretch r;
    r.on = true;
    r.first = {run.first.track, run.first.index + uint32_t(from)};
    r.firstRecord = run.firstRecord + uint32_t(from);
    r.op = place ? place->ops[run.op] : run.op;
    r.bytes = run.bytes;
    r.seq = run.firstSeq < 0 ? run.firstSeq : run.firstSeq + int64_t(from);
    r.seqStep = run.firstSeq < 0 ? 0 : 1;
    return r;
}

} // namespace

RecordVocabulary::RecordVocabulary(const trace::EventStore &store, const std::vector<std::string> &ops)
    : m_store(store), m_names(ops)
{
    for (size_t i = 0; i < m_names.size(); ++i)
        m_opIndex.try_emplace(m_names[i], uint32_t(i));
}

const RecordVocabulary::Op &RecordVocabulary::lookUpOp(const CollectiveRecord &c)
{
    const bool byName = c.source == CollectiveSource::KernelName;
    const uint64_t key = uint64_t(c.op) << 1 | (byName ? 1 : 0);
    auto [it, fresh] = m_ops.try_emplace(key);
    if (fresh) {
        std::string_view name = m_store.name(c.op);
        if (byName)
            if (const std::string_view op = trace::collectiveOpOfKernel(name); !op.empty())
                name = op;
        auto [at, added] = m_opIndex.try_emplace(name, uint32_t(m_names.size()));
        if (added)
            m_names.emplace_back(name);
        it->second = {at->second, collectiveKind(name)};
    }
    m_lastOp = c.op;
    m_lastSource = c.source;
    m_last = &it->second; // unordered_map nodes stay put
    return it->second;
}

void RecordVocabulary::lookUpDtype(trace::NameId dtype)
{
    auto [it, fresh] = m_dtypes.try_emplace(dtype);
    if (fresh)
        it->second = dtypeBytes(m_store.name(dtype));
    m_lastBytes = it->second;
    m_lastDtype = dtype;
    m_haveDtype = true;
}

void RecordSource::readColumns(size_t from, size_t count, const ObservedColumns &out) const
{
    constexpr size_t kChunk = 64;
    Observed chunk[kChunk];
    for (size_t at = 0; at < count; at += kChunk) {
        const size_t n = std::min(kChunk, count - at);
        read(from + at, n, chunk);
        for (size_t i = 0; i < n; ++i)
            out.set(at + i, chunk[i]);
    }
}

void HeldRecords::read(size_t from, size_t count, Observed *out) const
{
    for (size_t i = 0; i < count; ++i) {
        out[i] = slot(from + i);
        if (m_placed || !m_place)
            continue;
        out[i].start += m_place->offset;
        out[i].end += m_place->offset;
        out[i].op = m_place->ops[out[i].op];
    }
}

void HeldRecords::release(size_t upTo)
{
    for (size_t b = 0; b < upTo / kBlock && b < m_blocks.size(); ++b)
        m_blocks[b].reset();
}

void HeldRecords::append(const RecordSource &from)
{
    std::vector<Observed> chunk(kBlock);
    for (size_t at = 0; at < from.size(); at += kBlock) {
        const size_t n = std::min(kBlock, from.size() - at);
        from.read(at, n, chunk.data());
        for (size_t i = 0; i < n; ++i)
            push_back(chunk[i]);
    }
    m_placed = true;
}

std::unique_ptr<HeldRecords> HeldRecords::copyOf(const RecordSource &from)
{
    auto held = std::make_unique<HeldRecords>();
    held->append(from);
    held->startSorted = from.startSorted;
    held->seqSorted = from.seqSorted;
    held->allSeq = from.allSeq;
    return held;
}

std::unique_ptr<HeldRecords> HeldRecords::concatenation(const RecordSource &first, const RecordSource &second)
{
    auto held = std::make_unique<HeldRecords>();
    held->append(first);
    held->append(second);
    held->startSorted = held->seqSorted = false;
    held->allSeq = first.allSeq && second.allSeq;
    return held;
}

StoreRecords::StoreRecords(std::shared_ptr<const trace::EventStore> store, std::shared_ptr<RecordVocabulary> vocabulary,
                           std::shared_ptr<const std::vector<uint32_t>> indexes, size_t all)
    : m_store(std::move(store)), m_vocabulary(std::move(vocabulary)), m_indexes(std::move(indexes)), m_all(all)
{
    if (m_store)
        m_records = trace::collectivesOf(*m_store);
}

std::unique_ptr<StoreRecords> StoreRecords::readingOf(std::shared_ptr<const trace::EventStore> store,
                                                      std::shared_ptr<RecordVocabulary> vocabulary) const
{
    auto r = std::make_unique<StoreRecords>(std::move(store), std::move(vocabulary), m_indexes, m_all);
    r->startSorted = startSorted;
    r->seqSorted = seqSorted;
    r->allSeq = allSeq;
    r->m_run = m_run;
    return r;
}

void StoreRecords::read(size_t from, size_t count, Observed *out) const
{
    const int64_t offset = m_place ? m_place->offset : 0;
    if (m_run) {
        const trace::Track &t = m_store->track(m_run->first.track);
        const RunStretch r = stretchOf(*m_run, m_place.get(), from);
        for (size_t i = 0; i < count; ++i) {
            const uint32_t e = r.first.index + uint32_t(i);
            const int64_t start = t.start(e);
            out[i] = {{r.first.track, e},
                      start + offset,
                      start + t.duration(e) + offset,
                      r.seq + r.seqStep * int64_t(i),
                      r.bytes,
                      r.firstRecord + uint32_t(i),
                      r.op};
        }
        return;
    }
    const std::span<const CollectiveRecord> recs = m_records;
    for (size_t i = 0; i < count; ++i) {
        const uint32_t r = m_indexes ? (*m_indexes)[from + i] : uint32_t(from + i);
        const CollectiveRecord &c = recs[r];
        const RecordVocabulary::Op &op = m_vocabulary->opOf(c);
        out[i] = {c.event,
                  c.start + offset,
                  c.end + offset,
                  c.seq,
                  m_vocabulary->bytesOf(c, op),
                  r,
                  m_place ? m_place->ops[op.index] : op.index};
    }
}

// A run's times straight from its track's columns, in loops the compiler vectorizes.
bool StoreRecords::readStretch(size_t from, size_t count, int64_t *start, int64_t *end, RunStretch &stretch) const
{
    if (!m_run)
        return false;
    const RecordRun &run = *m_run;
    const trace::Track &t = m_store->track(run.first.track);
    const size_t e0 = run.first.index + from;
    const int64_t offset = m_place ? m_place->offset : 0;
    const int64_t *__restrict starts = t.columns().start.data() + e0;
    const uint32_t *__restrict duration = t.columns().duration.data() + e0;
    uint32_t longest = 0;
    for (size_t i = 0; i < count; ++i) {
        start[i] = starts[i] + offset;
        longest = std::max(longest, duration[i]);
    }
    if (longest != trace::Track::kDurationOverflow)
        for (size_t i = 0; i < count; ++i)
            end[i] = start[i] + int64_t(duration[i]);
    else
        for (size_t i = 0; i < count; ++i)
            end[i] = start[i] + t.duration(e0 + i);
    stretch = stretchOf(run, m_place.get(), from);
    return true;
}

HeldRun::HeldRun(const RecordRun &run, std::vector<int64_t> start, std::vector<int64_t> end)
    : m_run(run), m_start(std::move(start)), m_end(std::move(end))
{
}

void HeldRun::read(size_t from, size_t count, Observed *out) const
{
    const int64_t offset = m_place ? m_place->offset : 0;
    const RunStretch r = stretchOf(m_run, m_place.get(), from);
    for (size_t i = 0; i < count; ++i)
        out[i] = {{r.first.track, r.first.index + uint32_t(i)},
                  m_start[from + i] + offset,
                  m_end[from + i] + offset,
                  r.seq + r.seqStep * int64_t(i),
                  r.bytes,
                  r.firstRecord + uint32_t(i),
                  r.op};
}

bool HeldRun::readStretch(size_t from, size_t count, int64_t *start, int64_t *end, RunStretch &stretch) const
{
    const int64_t offset = m_place ? m_place->offset : 0;
    for (size_t i = 0; i < count; ++i) {
        start[i] = m_start[from + i] + offset;
        end[i] = m_end[from + i] + offset;
    }
    stretch = stretchOf(m_run, m_place.get(), from);
    return true;
}

} // namespace ps::core::analysis::detail
