// Step 3 of the matching (collectivesink.h): each communicator's records matched into
// instances, checked and measured, and handed to the sinks.

#include "core/analysis/collectives/collectivematch.h"
#include "core/analysis/collectives/collectivecheck.h"
#include "core/analysis/collectives/collectivekinds.h"
#include "core/analysis/collectives/collectivesink.h"
#include "core/common/canceltoken.h"

#include <algorithm>
#include <map>

namespace ps::core::analysis::detail {

namespace {

const auto byStart = [](const Observed &a, const Observed &b) { return a.start < b.start; };
const auto bySeq = [](const Observed &a, const Observed &b) { return a.seq < b.seq; };

// Held copies of a rank's records, sorted by `less` (records read in place are copied first).
template <typename Less> void sortRecords(std::unique_ptr<RecordSource> &records, Less less)
{
    std::unique_ptr<HeldRecords> held = HeldRecords::copyOf(*records);
    held->sortBy(less);
    records = std::move(held);
}

// Puts each rank's records in the order the matching takes them, and says how the communicator is
// matched: by Seq when every record has one (each rank's records then in Seq order), else k-th by
// start. Records come in event order per stream: sorted already but for several streams or shapes.
MatchMethod prepare(Communicator &c)
{
    bool allSeq = !c.nameOnly && !c.pointToPoint;
    for (auto &[rank, list] : c.byRank)
        allSeq = allSeq && list.records->allSeq;
    for (auto &[rank, list] : c.byRank) {
        const bool inSeqOrder = list.records->startSorted && list.records->seqSorted;
        if (!list.records->startSorted)
            sortRecords(list.records, byStart);
        if (allSeq && !inSeqOrder)
            sortRecords(list.records, bySeq);
    }
    return allSeq ? MatchMethod::Sequence : c.orderMethod;
}

// A rank's records read in order, a few at a time.
class Cursor
{
public:
    Cursor(int rank, RankRecords &list, size_t from) : m_rank(rank), m_list(&list), m_pos(from), m_bufStart(from) {}
    int rank() const { return m_rank; }
    uint32_t report() const { return m_list->report; }
    bool empty() const { return m_pos >= m_list->records->size(); }
    size_t left() const { return m_list->records->size() - m_pos; }
    const Observed &at(size_t i)
    {
        if (m_pos + i < m_bufStart || m_pos + i >= m_bufStart + m_buf.size()) {
            m_bufStart = m_pos;
            m_buf.resize(std::min(left(), std::max<size_t>(i + 1, kChunk)));
            m_list->records->read(m_pos, m_buf.size(), m_buf.data());
        }
        return m_buf[m_pos + i - m_bufStart];
    }
    const Observed &front() { return at(0); }
    void pop()
    {
        if (++m_pos % 1024 == 0)
            m_list->records->release(m_pos);
    }

private:
    static constexpr size_t kChunk = 64;
    int m_rank;
    RankRecords *m_list;
    size_t m_pos, m_bufStart;
    std::vector<Observed> m_buf;
};

// The k-th record of every rank still holding one.
template <typename Emit> void byOrder(std::vector<Cursor> &lists, int64_t k, std::vector<Arrival> &members, Emit &&emit)
{
    for (; !lists.empty(); ++k) {
        members.clear();
        for (Cursor &l : lists)
            members.push_back(Arrival{l.rank(), l.report(), l.front()});
        emit(k, members);
        for (Cursor &l : lists)
            l.pop();
        std::erase_if(lists, [](const Cursor &l) { return l.empty(); });
    }
}

// A merge that takes every rank's lowest Seq (a rank with one Seq twice gives the instance both,
// which it then reports).
template <typename Emit> void bySequence(std::vector<Cursor> &lists, std::vector<Arrival> &members, Emit &&emit)
{
    std::vector<size_t> taken(lists.size());
    while (!lists.empty()) {
        int64_t seq = INT64_MAX;
        for (Cursor &l : lists)
            seq = std::min(seq, l.front().seq);
        members.clear();
        for (size_t l = 0; l < lists.size(); ++l)
            for (taken[l] = 0; taken[l] < lists[l].left() && lists[l].at(taken[l]).seq == seq; ++taken[l])
                members.push_back(Arrival{lists[l].rank(), lists[l].report(), lists[l].at(taken[l])});
        emit(seq, members);
        for (size_t l = 0; l < lists.size(); ++l)
            for (; taken[l] > 0; --taken[l])
                lists[l].pop();
        std::erase_if(lists, [](const Cursor &l) { return l.empty(); });
    }
}

} // namespace

namespace {

// One communicator's instances handed to the sinks: a block at a time while every rank has the
// next instance and the ranks agree on it (the usual case), then one at a time.
class CommunicatorMatch
{
public:
    CommunicatorMatch(Communicator &c, CollectiveInput &in, std::span<InstanceSink *const> sinks, size_t &position)
        : m_c(c), m_in(in), m_sinks(sinks), m_position(position)
    {
        m_one.communicator = &c;
        m_one.input = &in;
        m_block.communicator = &c;
        m_block.input = &in;
    }
    void run(MatchMethod method, bool inBlocks, const core::CancelToken *cancel);

private:
    size_t blockable() const;
    size_t runBlocks(size_t count, const core::CancelToken *cancel);
    size_t fillBlock(size_t from, size_t count, size_t shortest);
    void arrivals(std::vector<int64_t> &first, std::vector<int64_t> &minEnd);
    void agreeWithFirst(size_t m);
    void measureBlock();
    void emitOne(int64_t index, const std::vector<Arrival> &members);

    Communicator &m_c;
    CollectiveInput &m_in;
    std::span<InstanceSink *const> m_sinks;
    size_t &m_position;
    MatchMethod m_method = MatchMethod::GroupOrder;
    MatchedInstance m_one;
    InstanceBlock m_block;
    std::vector<Arrival> m_members;
    std::vector<int64_t> m_first, m_minEnd; // per instance of the block
    int64_t m_lastSeq = INT64_MIN;          // of the blocks so far
};

void CommunicatorMatch::emitOne(int64_t index, const std::vector<Arrival> &members)
{
    MatchedInstance &m = m_one;
    m.method = m_method;
    m.index = index;
    m.op = members.front().o.op;
    m.members = members;
    m.position = m_position++;
    m.problem = problemOf(m_c, members, m_in);
    m.lastRank = -1;
    m.lastStart = m.skewNs = m.transferNs = 0;
    m.bytes.reset();
    m.algbwGBps.reset();
    m.busbwGBps.reset();
    if (m.complete())
        measure(m, m_in.kinds[m.op]);
    for (InstanceSink *s : m_sinks)
        s->instance(m);
}

// How many instances, from the first, every rank has (its lists' shortest); 0 when the
// communicator cannot be matched in blocks (its members are not all here, or it cannot be matched).
size_t CommunicatorMatch::blockable() const
{
    if (!m_c.unmatchable.empty() || m_c.byRank.empty())
        return 0;
    std::vector<Arrival> all; // the ranks that recorded it: is anyone missing from them all?
    size_t shortest = SIZE_MAX;
    for (const auto &[rank, list] : m_c.byRank) {
        all.push_back(Arrival{rank, list.report, {}});
        shortest = std::min(shortest, list.records->size());
    }
    return absentProblem(m_c, all, m_in).empty() ? shortest : 0;
}

// Reads instances [from, from + count) of every rank (`shortest`: how many every rank has). With
// Seq, only as far as the ranks agree on it: the same Seq at the same place, ascending, and not
// repeated by the rank's next record (a Seq twice on one rank is an instance of its own, which the
// merge reports); so one record more is read to look ahead. Returns how many were taken.
size_t CommunicatorMatch::fillBlock(size_t from, size_t count, size_t shortest)
{
    InstanceBlock &b = m_block;
    const bool bySeq = m_method == MatchMethod::Sequence;
    const size_t read = bySeq ? std::min(count + 1, shortest - from) : count;
    b.resize(b.ranks.size(), read);
    size_t m = 0;
    for (auto &[rank, list] : m_c.byRank) {
        const size_t at = b.at(m, 0);
        if (!list.records->readStretch(from, read, &b.start[at], &b.end[at], b.stretches[m]))
            list.records->readColumns(from, read, b.columnsOf(m));
        ++m;
    }
    b.count = read;
    if (bySeq) {
        size_t agree = 0;
        for (; agree + 1 < read; ++agree) {
            const int64_t seq = b.seqAt(0, agree);
            bool same = seq > m_lastSeq;
            for (size_t r = 0; r < b.ranks.size() && same; ++r)
                same = b.seqAt(r, agree) == seq && b.seqAt(r, agree + 1) != seq;
            if (!same)
                break;
            m_lastSeq = seq;
        }
        b.count = agree; // the rest goes one at a time
    }
    b.index.resize(b.count);
    for (size_t k = 0; k < b.count; ++k)
        b.index[k] = bySeq ? b.seqAt(0, k) : int64_t(from + k);
    return b.count;
}

// The block's arrivals and checks, a rank at a time: the last to arrive (the lowest rank of
// equal arrivals, as measure() takes it), the first, the earliest end, and whether every member
// recorded the op and size member 0 did (else problemOf names the instance).
void CommunicatorMatch::arrivals(std::vector<int64_t> &first, std::vector<int64_t> &minEnd)
{
    InstanceBlock &b = m_block;
    const size_t n = b.count;
    b.handled.resize(n);
    b.lastMember.assign(n, 0);
    b.lastStart.assign(b.start.begin(), b.start.begin() + std::ptrdiff_t(n));
    first.assign(b.start.begin(), b.start.begin() + std::ptrdiff_t(n));
    minEnd.assign(b.end.begin(), b.end.begin() + std::ptrdiff_t(n));
    for (size_t k = 0; k < n; ++k)
        b.handled[k] = !(m_c.nameOnly && m_in.kinds[b.op(k)] == CollectiveKind::SendRecv);
    // Plain pointers that alias nothing else, so that the loop over k vectorizes.
    int64_t *__restrict lastStart = b.lastStart.data(), *__restrict earliest = first.data();
    int64_t *__restrict endFirst = minEnd.data();
    uint32_t *__restrict lastMember = b.lastMember.data();
    for (size_t m = 1; m < b.ranks.size(); ++m) {
        const int64_t *__restrict start = &b.start[b.at(m, 0)], *__restrict end = &b.end[b.at(m, 0)];
        for (size_t k = 0; k < n; ++k) {
            const bool later = start[k] > lastStart[k];
            lastStart[k] = later ? start[k] : lastStart[k];
            lastMember[k] = later ? uint32_t(m) : lastMember[k];
            earliest[k] = std::min(earliest[k], start[k]);
            endFirst[k] = std::min(endFirst[k], end[k]);
        }
        agreeWithFirst(m);
    }
}

// Clears `handled` where member m's op or size differs from member 0's (a pair's send meets a
// recv: only their sizes must agree); two stretches are compared once.
void CommunicatorMatch::agreeWithFirst(size_t m)
{
    InstanceBlock &b = m_block;
    const RunStretch &r = b.stretches[m], &r0 = b.stretches[0];
    const bool anyOp = m_c.pointToPoint;
    if (r.on && r0.on) {
        if (!((anyOp || r.op == r0.op) && r.bytes == r0.bytes))
            std::fill(b.handled.begin(), b.handled.begin() + std::ptrdiff_t(b.count), 0);
        return;
    }
    for (size_t k = 0; k < b.count; ++k)
        b.handled[k] &= uint8_t((anyOp || b.opAt(m, k) == b.op(k)) && b.bytesAt(m, k) == b.bytesAt(0, k));
}

// The block's checks and measures, and each member's wait.
void CommunicatorMatch::measureBlock()
{
    InstanceBlock &b = m_block;
    const size_t n = b.count;
    std::vector<int64_t> &first = m_first, &minEnd = m_minEnd;
    arrivals(first, minEnd);
    b.skew.resize(n);
    b.transfer.resize(n);
    b.bytes.resize(n);
    for (size_t k = 0; k < n; ++k)
        b.bytes[k] = b.bytesAt(0, k);
    b.algbw.assign(n, -1.0);
    b.busbw.assign(n, -1.0);
    b.waits.assign(n, 0);
    const int size = m_one.groupSize() > 0 ? m_one.groupSize() : int(b.ranks.size());
    for (size_t k = 0; k < n; ++k) {
        b.handled[k] = b.handled[k] && minEnd[k] + kOverlapSlackNs >= b.lastStart[k];
        b.skew[k] = b.lastStart[k] - first[k];
        b.transfer[k] = b.end[b.at(b.lastMember[k], k)] - b.lastStart[k];
        if (b.bytes[k] != Observed::kNoBytes && b.transfer[k] > 0) {
            b.algbw[k] = double(b.bytes[k]) / double(b.transfer[k]);
            if (const auto f = busBandwidthFactor(m_in.kinds[b.op(k)], size))
                b.busbw[k] = b.algbw[k] * *f;
        }
    }
    const int64_t *__restrict lastStart = b.lastStart.data();
    int64_t *__restrict waits = b.waits.data();
    for (size_t m = 0; m < b.ranks.size(); ++m) {
        const size_t at = b.at(m, 0);
        const int64_t *__restrict start = &b.start[at], *__restrict end = &b.end[at];
        int64_t *__restrict wait = &b.wait[at];
        for (size_t k = 0; k < n; ++k) {
            const int64_t w = std::clamp<int64_t>(lastStart[k] - start[k], 0, end[k] - start[k]);
            wait[k] = w;
            waits[k] += w;
        }
    }
}

// Instances [0, count) in blocks; returns where the blocks stopped (a Seq the ranks disagree on).
size_t CommunicatorMatch::runBlocks(size_t count, const core::CancelToken *cancel)
{
    InstanceBlock &b = m_block;
    b.method = m_method;
    b.ranks.clear();
    b.reports.clear();
    for (const auto &[rank, list] : m_c.byRank) {
        b.ranks.push_back(rank);
        b.reports.push_back(list.report);
    }
    // A block's records stay in the caches while each sink walks them a rank at a time.
    const size_t perBlock = std::clamp<size_t>(16384 / b.ranks.size(), 16, 256);
    size_t at = 0;
    while (at < count && !(cancel && cancel->cancelled())) {
        const size_t want = std::min(perBlock, count - at);
        const size_t got = fillBlock(at, want, count);
        measureBlock();
        b.firstPosition = m_position;
        for (size_t k = 0; k < got; ++k)
            if (!b.handled[k]) { // a problem: one at a time, where problemOf says which
                m_members.clear();
                for (size_t m = 0; m < b.ranks.size(); ++m)
                    m_members.push_back(Arrival{b.ranks[m], b.reports[m], b.observed(m, k)});
                m_position = b.firstPosition + k;
                emitOne(b.index[k], m_members);
            }
        m_position = b.firstPosition + got;
        if (got > 0)
            for (InstanceSink *s : m_sinks)
                s->block(b);
        at += got;
        for (auto &[rank, list] : m_c.byRank)
            list.records->release(at);
        if (got < want)
            break;
    }
    return at;
}

void CommunicatorMatch::run(MatchMethod method, bool inBlocks, const core::CancelToken *cancel)
{
    m_method = method;
    const size_t done = inBlocks ? runBlocks(blockable(), cancel) : 0;
    std::vector<Cursor> lists;
    for (auto &[rank, list] : m_c.byRank)
        if (list.records->size() > done)
            lists.emplace_back(rank, list, done);
    const auto emit = [&](int64_t index, const std::vector<Arrival> &obs) { emitOne(index, obs); };
    if (method == MatchMethod::Sequence)
        bySequence(lists, m_members, emit);
    else
        byOrder(lists, int64_t(done), m_members, emit);
}

} // namespace

void matchInstances(CollectiveInput &in, std::span<InstanceSink *const> sinks, const core::CancelToken *cancel,
                    bool inBlocks)
{
    size_t position = 0;
    for (auto &[key, c] : in.communicators) {
        if (cancel && cancel->cancelled())
            return;
        std::string counts = countsNote(c);
        const MatchMethod method = prepare(c);
        CommunicatorMatch(c, in, sinks, position).run(method, inBlocks, cancel);
        if (method != MatchMethod::Sequence && !counts.empty())
            in.notes.push_back(std::move(counts));
        for (InstanceSink *s : sinks)
            s->communicatorEnds(c, method);
        c.byRank.clear(); // matched: its records are done with
    }
}

void InstanceBlock::resize(size_t members, size_t perMember)
{
    stride = perMember;
    const size_t n = members * perMember;
    stretches.assign(members, RunStretch{});
    event.resize(n);
    start.resize(n);
    end.resize(n);
    seq.resize(n);
    wait.resize(n);
    bytesOf.resize(n);
    record.resize(n);
    opOf.resize(n);
}

} // namespace ps::core::analysis::detail
