// Step 1 of the matching (collectiveinput.h): one report's collective records copied into compact
// lists by shape, in one pass over its records with the names looked up once per report.

#include "core/analysis/collectiveinput.h"
#include "core/trace/tracereader.h"

#include <unordered_map>

namespace ps::core::analysis::detail {

using trace::CollectiveRecord;
using trace::CollectiveSource;
using trace::EventStore;

std::vector<Observed> ObservedQueue::drain()
{
    std::vector<Observed> all;
    all.reserve(size());
    for (size_t i = m_head; i < m_end; ++i)
        all.push_back(slot(i));
    m_blocks.clear();
    m_head = m_end = 0;
    return all;
}

void ObservedQueue::append(ObservedQueue &&other)
{
    if (empty()) {
        *this = std::move(other);
        return;
    }
    for (const Observed &o : other.drain())
        push_back(o);
}

void ObservedQueue::rebase(int64_t offset, const std::vector<uint32_t> &ops)
{
    for (size_t i = m_head; i < m_end; ++i) {
        Observed &o = slot(i);
        o.start += offset;
        o.end += offset;
        o.op = ops[o.op];
    }
}

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

// The report's NCCL streams numbered by their first collective, for kernels known by name only.
std::unordered_map<uint32_t, int> streamOrdinals(std::span<const CollectiveRecord> recs)
{
    std::unordered_map<uint32_t, int64_t> firstOf;
    for (const CollectiveRecord &c : recs)
        if (c.source == CollectiveSource::KernelName) {
            auto [it, fresh] = firstOf.try_emplace(c.stream, c.start);
            it->second = std::min(it->second, c.start);
        }
    std::vector<std::pair<int64_t, uint32_t>> firsts;
    for (const auto &[stream, start] : firstOf)
        firsts.emplace_back(start, stream);
    std::sort(firsts.begin(), firsts.end());
    std::unordered_map<uint32_t, int> ordinal;
    for (size_t i = 0; i < firsts.size(); ++i)
        ordinal[firsts[i].second] = int(i);
    return ordinal;
}

class Extractor
{
public:
    Extractor(const trace::Report &r, ReportCollectives &out) : m_r(r), m_s(*r.store), m_out(out) {}
    void run(const trace::CancelToken *cancel);

private:
    struct OpInfo
    {
        uint32_t index = 0;
        CollectiveKind kind = CollectiveKind::Other;
    };
    const OpInfo &opOf(const CollectiveRecord &c);
    size_t shapeOf(const CollectiveRecord &c, const OpInfo &op); // index into m_out.shapes
    std::optional<int> dtypeOf(trace::NameId dtype);

    const trace::Report &m_r;
    const EventStore &m_s;
    ReportCollectives &m_out;
    std::unordered_map<uint32_t, int> m_streams;
    std::unordered_map<uint64_t, OpInfo> m_ops;
    std::unordered_map<std::string_view, uint32_t> m_opIndex;
    std::unordered_map<trace::NameId, std::optional<int>> m_dtypes;
    std::unordered_map<ShapeKey, size_t, ShapeKeyHash> m_shapes;
};

// An op name classified once per report and name id.
const Extractor::OpInfo &Extractor::opOf(const CollectiveRecord &c)
{
    const uint64_t key = uint64_t(c.op) << 1 | (c.source == CollectiveSource::KernelName ? 1 : 0);
    auto [it, fresh] = m_ops.try_emplace(key);
    if (fresh) {
        std::string_view name = m_s.name(c.op);
        if (c.source == CollectiveSource::KernelName)
            if (const std::string_view op = trace::collectiveOpOfKernel(name); !op.empty())
                name = op;
        auto [at, added] = m_opIndex.try_emplace(name, uint32_t(m_out.ops.size()));
        if (added)
            m_out.ops.emplace_back(name);
        it->second = {at->second, collectiveKind(name)};
    }
    return it->second;
}

std::optional<int> Extractor::dtypeOf(trace::NameId dtype)
{
    auto [it, fresh] = m_dtypes.try_emplace(dtype);
    if (fresh)
        it->second = dtypeBytes(m_s.name(dtype));
    return it->second;
}

size_t Extractor::shapeOf(const CollectiveRecord &c, const OpInfo &op)
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
    s.streamOrdinal = byName ? m_streams[c.stream] : 0;
    s.place = m_r.path + ": " + std::string(m_s.name(c.op)) + " kernel at " + std::to_string(c.start) +
              " ns (group \"" + s.group + "\")";
    return it->second;
}

void Extractor::run(const trace::CancelToken *cancel)
{
    const std::span<const CollectiveRecord> recs = m_s.collectives();
    m_out.path = m_r.path;
    m_out.rank = m_r.identity.rank;
    m_out.records = recs.size();
    for (const trace::ProcessGroupInfo &g : m_s.processGroups())
        m_out.groups.push_back({std::string(m_s.name(g.name)), std::string(m_s.name(g.ranks)), g.size, g.isWorld != 0});
    m_streams = streamOrdinals(recs);
    // Records mostly repeat the op, dtype and shape of the one before: looked up only on a change.
    const CollectiveRecord *prev = nullptr;
    const OpInfo *op = nullptr;
    size_t shape = 0;
    std::optional<int> bytesPer;
    for (size_t k = 0; k < recs.size(); ++k) {
        if (k % 65536 == 0 && cancel && cancel->cancelled())
            return;
        const CollectiveRecord &c = recs[k];
        const bool sameOp = prev && c.op == prev->op && c.source == prev->source;
        if (!sameOp)
            op = &opOf(c);
        if (!prev || c.dtype != prev->dtype)
            bytesPer = dtypeOf(c.dtype);
        const bool sameShape = sameOp && c.groupName == prev->groupName && c.groupRanks == prev->groupRanks &&
                               c.groupDesc == prev->groupDesc && c.groupSize == prev->groupSize &&
                               c.peer == prev->peer && c.stream == prev->stream;
        if (!sameShape)
            shape = shapeOf(c, *op);
        const int64_t n = op->kind == CollectiveKind::AllGather ? c.outNelems : c.inNelems;
        const uint64_t bytes = bytesPer && n >= 0 ? uint64_t(n) * uint64_t(*bytesPer) : Observed::kNoBytes;
        m_out.shapes[shape].records.push_back({c.event, c.start, c.end, c.seq, bytes, uint32_t(k), op->index});
        prev = &c;
    }
}

} // namespace

ReportCollectives extractCollectives(const trace::Report &report, const trace::CancelToken *cancel)
{
    ReportCollectives out;
    Extractor(report, out).run(cancel);
    return out;
}

} // namespace ps::core::analysis::detail
