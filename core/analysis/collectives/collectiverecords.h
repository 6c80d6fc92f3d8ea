#pragma once
// Where the matching reads a rank's records of one communicator from (internal to core/analysis):
//   - StoreRecords: in place, from the report's store (its records, or the subset of one shape by
//     index). Nothing is copied: 64 ranks x 166 k records are 10 M records, and copying them cost
//     more than matching them (the copies' fresh pages alone).
//   - HeldRun: a run of records (kernels one after another on a track, one op and size, Seqs absent
//     or counting up) held as their times alone: most of a digest's records, read one at a time
//     in a run of 1024 digests.
//   - HeldRecords: copies of any other records of a report that is let go once they are taken,
//     or whose records must be re-sorted.
// Each gives its records as Observed on the shared axis with the run's op indexes, a block at a
// time, in the order they were extracted; the matching sorts them first where it must (by start,
// or by Seq).

#include "core/analysis/collectives/collectivekinds.h"
#include "core/trace/store/collectiverecord.h"
#include "core/trace/store/eventstore.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace ps::core::analysis::detail {

// One record as the matching sees it; its rank and report are those of the list holding it.
// Without initializers, so blocks of them are allocated without being written twice.
struct Observed
{
    static constexpr uint64_t kNoBytes = UINT64_MAX;
    trace::EventRef event;
    int64_t start, end; // the shared axis once read from a source (held copies: own clock)
    int64_t seq;
    uint64_t bytesOrNone;
    uint32_t record; // index into the report's collective records
    uint32_t op;     // into CollectiveInput::ops once read (held copies: into the report's ops)

    std::optional<uint64_t> bytes() const
    {
        return bytesOrNone == kNoBytes ? std::nullopt : std::optional<uint64_t>(bytesOrNone);
    }
};
static_assert(sizeof(Observed) == 48);

// Records as columns (the matcher's blocks): position i of each.
struct ObservedColumns
{
    trace::EventRef *event;
    int64_t *start, *end, *seq;
    uint64_t *bytes;
    uint32_t *record, *op;

    void set(size_t i, const Observed &o) const
    {
        event[i] = o.event;
        start[i] = o.start;
        end[i] = o.end;
        seq[i] = o.seq;
        bytes[i] = o.bytesOrNone;
        record[i] = o.record;
        op[i] = o.op;
    }
};

// A stretch of records that lie one after another (RecordRun): all but their times follow from it.
struct RunStretch
{
    bool on = false;
    trace::EventRef first; // the stretch's first kernel
    uint32_t firstRecord = 0;
    uint32_t op = 0; // the run's op index
    uint64_t bytes = 0;
    int64_t seq = -1, seqStep = 0; // the i-th record's Seq is seq + seqStep * i
};

// Where a report's records go on the run: its clock offset and its op indexes in the run's list.
struct Placement
{
    int64_t offset = 0;
    std::vector<uint32_t> ops; // report op index -> run op index
};

// What a report's records say, looked up once per name: the op a record is (an NCCL kernel's
// collective for kernels known by name) as an index into the report's op names, and the bytes of
// its message.
class RecordVocabulary
{
public:
    struct Op
    {
        uint32_t index = 0;
        CollectiveKind kind = CollectiveKind::Other;
    };
    // `ops`: the report's op names as a first reading listed them, so that every reading gives an
    // op the same index.
    RecordVocabulary(const trace::EventStore &store, const std::vector<std::string> &ops = {});
    const Op &opOf(const trace::CollectiveRecord &c)
    {
        // Records mostly repeat the op and dtype of the one before.
        return m_last && m_lastOp == c.op && m_lastSource == c.source ? *m_last : lookUpOp(c);
    }
    uint64_t bytesOf(const trace::CollectiveRecord &c, const Op &op) // Observed::kNoBytes when unknown
    {
        if (!m_haveDtype || m_lastDtype != c.dtype)
            lookUpDtype(c.dtype);
        const int64_t n = op.kind == CollectiveKind::AllGather ? c.outNelems : c.inNelems;
        // A digest's records come without the builder's bound: a product that would wrap is
        // no message size either.
        const bool fits = m_lastBytes && n >= 0 && n <= trace::kMaxCollectiveElements && *m_lastBytes <= 64;
        return fits ? uint64_t(n) * uint64_t(*m_lastBytes) : kNoBytes;
    }
    // The op names, in the order of their first record.
    const std::vector<std::string> &ops() const { return m_names; }

private:
    static constexpr uint64_t kNoBytes = UINT64_MAX; // Observed::kNoBytes
    const Op &lookUpOp(const trace::CollectiveRecord &c);
    void lookUpDtype(trace::NameId dtype);
    const trace::EventStore &m_store;
    std::unordered_map<uint64_t, Op> m_ops;
    std::unordered_map<std::string_view, uint32_t> m_opIndex;
    std::unordered_map<trace::NameId, std::optional<int>> m_dtypes;
    std::vector<std::string> m_names;
    // The last record's op and dtype, looked up again only when they change.
    const Op *m_last = nullptr;
    trace::NameId m_lastOp = trace::kNoName, m_lastDtype = trace::kNoName;
    trace::CollectiveSource m_lastSource = trace::CollectiveSource::KernelArgs;
    bool m_haveDtype = false;
    std::optional<int> m_lastBytes;
};

class RecordSource
{
public:
    virtual ~RecordSource() = default;
    virtual size_t size() const = 0;
    // Records [from, from + count), on the shared axis with the run's op indexes.
    virtual void read(size_t from, size_t count, Observed *out) const = 0;
    // The same into columns, from their position 0.
    void readColumns(size_t from, size_t count, const ObservedColumns &out) const;
    // When the records lie one after another: only their times, and the stretch they are.
    virtual bool readStretch(size_t from, size_t count, int64_t *start, int64_t *end, RunStretch &stretch) const
    {
        (void)from, (void)count, (void)start, (void)end, (void)stretch;
        return false;
    }
    // Records before `upTo` will not be read again.
    virtual void release(size_t upTo) { (void)upTo; }
    void place(std::shared_ptr<const Placement> p) { m_place = std::move(p); }

    // Set as the records are taken: whether they come sorted by start, and by Seq, and whether
    // every one has a Seq.
    bool startSorted = true, seqSorted = true, allSeq = true;

protected:
    std::shared_ptr<const Placement> m_place;
};

// Copies, in blocks freed as they are released.
class HeldRecords final : public RecordSource
{
public:
    void push_back(const Observed &o);
    size_t size() const override { return m_size; }
    void read(size_t from, size_t count, Observed *out) const override;
    void release(size_t upTo) override;
    // Sorted by `less` (records already placed on the run: read() then copies them as they are).
    template <typename Less> void sortBy(Less less);
    // Records read from `from` (placed), held here as they are.
    static std::unique_ptr<HeldRecords> copyOf(const RecordSource &from);
    // `first`'s records then `second`'s (a rank with two shapes of record in one communicator),
    // neither taken as sorted.
    static std::unique_ptr<HeldRecords> concatenation(const RecordSource &first, const RecordSource &second);

private:
    void append(const RecordSource &from);
    static constexpr size_t kBlock = 1024; // 48 KB
    const Observed &slot(size_t i) const { return m_blocks[i / kBlock][i % kBlock]; }
    std::vector<std::unique_ptr<Observed[]>> m_blocks;
    size_t m_size = 0;
    bool m_placed = false; // already on the shared axis with the run's ops
};

inline void HeldRecords::push_back(const Observed &o)
{
    if (m_size == m_blocks.size() * kBlock)
        m_blocks.push_back(std::make_unique_for_overwrite<Observed[]>(kBlock));
    m_blocks[m_size / kBlock][m_size % kBlock] = o;
    ++m_size;
}

template <typename Less> void HeldRecords::sortBy(Less less)
{
    std::vector<Observed> all(m_size);
    read(0, m_size, all.data());
    std::stable_sort(all.begin(), all.end(), less);
    m_blocks.clear();
    m_size = 0;
    for (const Observed &o : all)
        push_back(o);
    m_placed = true;
}

// A shape whose records lie one after another, as a communicator's usually do: their kernels
// consecutive on one track and their records consecutive, with one op and message size, and Seqs
// absent or counting up by one. Read from the track's columns (12 bytes a record, not 96).
struct RecordRun
{
    static constexpr uint64_t kNoBytes = UINT64_MAX; // Observed::kNoBytes
    trace::EventRef first;                           // the first record's kernel
    uint32_t firstRecord = 0;                        // its index in the store's records
    uint32_t op = 0;                                 // into the report's ops
    uint64_t bytes = kNoBytes;
    int64_t firstSeq = -1; // the i-th record's Seq is firstSeq + i, or -1 for all when absent
};

// A run's records held as their times alone (16 bytes a record, not 48): a digest's records,
// taken one report at a time, whose report is let go.
class HeldRun final : public RecordSource
{
public:
    HeldRun(const RecordRun &run, std::vector<int64_t> start, std::vector<int64_t> end);
    size_t size() const override { return m_start.size(); }
    void read(size_t from, size_t count, Observed *out) const override;
    bool readStretch(size_t from, size_t count, int64_t *start, int64_t *end, RunStretch &stretch) const override;

private:
    RecordRun m_run;
    std::vector<int64_t> m_start, m_end; // own clock
};

// A report's records in place: all of them, or those whose indexes a shape lists.
class StoreRecords final : public RecordSource
{
public:
    // `indexes` null: every record of the store (`all` of them). Without a store, a list kept with
    // the store (it may not hold the store that holds it) to be read through readingOf().
    StoreRecords(std::shared_ptr<const trace::EventStore> store, std::shared_ptr<RecordVocabulary> vocabulary,
                 std::shared_ptr<const std::vector<uint32_t>> indexes, size_t all);
    size_t size() const override { return m_indexes ? m_indexes->size() : m_all; }
    void read(size_t from, size_t count, Observed *out) const override;
    bool readStretch(size_t from, size_t count, int64_t *start, int64_t *end, RunStretch &stretch) const override;
    void setRun(const RecordRun &run) { m_run = run; }
    // The same records of `store`, read through `vocabulary` (a reading of its own).
    std::unique_ptr<StoreRecords> readingOf(std::shared_ptr<const trace::EventStore> store,
                                            std::shared_ptr<RecordVocabulary> vocabulary) const;

private:
    std::shared_ptr<const trace::EventStore> m_store;
    std::shared_ptr<RecordVocabulary> m_vocabulary; // shared by the report's shapes; read on one thread
    std::shared_ptr<const std::vector<uint32_t>> m_indexes;
    size_t m_all = 0;
    std::optional<RecordRun> m_run;
    std::span<const trace::CollectiveRecord> m_records; // the store's (trace::collectivesOf)
};

} // namespace ps::core::analysis::detail
