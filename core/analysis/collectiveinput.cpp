#include "core/analysis/collectiveinput.h"

#include "core/analysis/collectivekinds.h"
#include "core/trace/tracereader.h"

#include <algorithm>
#include <charconv>
#include <compare>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace ps::core::analysis::detail {

using trace::CollectiveRecord;
using trace::CollectiveSource;
using trace::EventStore;
using trace::Report;

namespace {

// Far beyond any job; a larger world or group size is damaged or hostile input, refused before
// a member list of that size is made.
constexpr int kMaxRanks = 1 << 20;

// "[0, 1, 2]" or "[0,1,2]" -> {0, 1, 2}; nullopt when empty, truncated by PyTorch ("...") or
// not a list of integers.
std::optional<std::vector<int>> parseRankList(std::string_view text)
{
    if (text.empty() || text.find("...") != std::string_view::npos)
        return std::nullopt;
    std::vector<int> ranks;
    size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '[' || c == ']' || c == ',' || c == ' ' || c == '\n') {
            ++i;
            continue;
        }
        int v = 0;
        const auto [end, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
        if (ec != std::errc() || v < 0)
            return std::nullopt;
        ranks.push_back(v);
        i = size_t(end - text.data());
    }
    if (ranks.empty())
        return std::nullopt;
    std::sort(ranks.begin(), ranks.end());
    return ranks;
}

// "file: collective at 1234 ns (group G)": where a record is, for an error.
std::string recordPlace(const Report &r, const CollectiveRecord &c)
{
    const EventStore &s = *r.store;
    return r.path + ": " + std::string(s.name(c.op)) + " kernel at " + std::to_string(c.start) + " ns (group \"" +
           std::string(s.name(c.groupName)) + "\")";
}

struct OpInfo
{
    std::string_view name;
    CollectiveKind kind = CollectiveKind::Other;
};

// What decides a record's communicator: records alike in these go to the same list.
struct ShapeKey
{
    CollectiveSource source;
    trace::NameId group, ranks, desc;
    int32_t size, peer;
    uint32_t stream;
    auto operator<=>(const ShapeKey &) const = default;
};

class Gatherer
{
public:
    Gatherer(std::span<const trace::ReportPtr> reports, std::span<const int64_t> offsets, CollectiveInput &in,
             const trace::CancelToken *cancel)
        : m_reports(reports), m_offsets(offsets), m_in(in), m_cancel(cancel)
    {
    }
    void run();

private:
    bool resolveRanks(const std::vector<size_t> &withData, std::vector<int> &ranks);
    void readGroups(size_t report);
    void addRecord(size_t report, int rank, size_t record, const std::vector<int> &streamOrdinal);
    std::vector<Observed> *addTo(const std::string &key, int rank, const Communicator &shape,
                                 const std::string &origin);
    std::vector<Observed> *listFor(size_t report, int rank, const CollectiveRecord &c, const OpInfo &op,
                                   const std::vector<int> &streamOrdinal);
    const OpInfo &opInfo(const EventStore &s, const CollectiveRecord &c);
    std::shared_ptr<const std::vector<int>> membersOf(const Report &r, const CollectiveRecord &c, int rank);
    std::shared_ptr<const std::vector<int>> checkedMembers(const Report &r, const CollectiveRecord &c, int rank);
    int64_t offset(size_t report) const { return report < m_offsets.size() ? m_offsets[report] : 0; }

    std::span<const trace::ReportPtr> m_reports;
    std::span<const int64_t> m_offsets;
    CollectiveInput &m_in;
    const trace::CancelToken *m_cancel;
    std::map<std::string, std::pair<std::vector<int>, std::string>> m_pgConfig; // name -> members, origin
    std::optional<std::pair<int, std::string>> m_world;                         // size, origin
    // Per report: members by (group name, ranks text, size), so each is parsed and checked once,
    // and the communicators whose members this report has been checked against.
    std::map<std::tuple<trace::NameId, trace::NameId, int32_t>, std::shared_ptr<const std::vector<int>>> m_members;
    std::set<std::string> m_checkedKeys;
    // Per report: op names classified, dtype sizes, and each shape of record's list.
    std::unordered_map<uint64_t, OpInfo> m_ops;
    const std::pair<const uint64_t, OpInfo> *m_lastOp = nullptr;
    std::pair<trace::NameId, std::optional<int>> m_lastDtype{trace::kNoName, std::nullopt};
    std::map<ShapeKey, std::vector<Observed> *> m_lists;
    const std::pair<const ShapeKey, std::vector<Observed> *> *m_lastList = nullptr;
    size_t m_records = 0; // of the report being gathered
};

// Each report's rank (identity, else the file's own); a report without one is numbered by its
// position only when no report has a rank. Two reports of one rank are an error.
bool Gatherer::resolveRanks(const std::vector<size_t> &withData, std::vector<int> &ranks)
{
    const bool anyRank = std::any_of(withData.begin(), withData.end(),
                                     [&](size_t r) { return m_reports[r]->identity.rank.has_value(); });
    std::map<int, size_t> seen;
    for (size_t i = 0; i < withData.size(); ++i) {
        const Report &r = *m_reports[withData[i]];
        if (!r.identity.rank && anyRank) {
            m_in.errors.push_back(r.path + ": no rank (distributedInfo.rank, or rank-N in the file or folder name), "
                                           "while other reports have one");
            continue;
        }
        const int rank = r.identity.rank.value_or(int(i));
        if (auto [it, fresh] = seen.emplace(rank, withData[i]); !fresh)
            m_in.errors.push_back(r.path + ": rank " + std::to_string(rank) + " appears twice (also " +
                                  m_reports[it->second]->path +
                                  "); give one report per rank (traces of different runs or steps mixed?)");
        ranks[withData[i]] = rank;
    }
    if (!anyRank && withData.size() > 1)
        m_in.notes.push_back("no report states its rank: ranks are numbered by input order");
    return m_in.errors.empty();
}

// The report's world size and pg_config; they must agree with every other report's.
void Gatherer::readGroups(size_t report)
{
    const Report &r = *m_reports[report];
    const EventStore &s = *r.store;
    for (const trace::ProcessGroupInfo &g : s.processGroups()) {
        if (g.size > kMaxRanks) {
            m_in.errors.push_back(r.path + ": distributedInfo gives a group of " + std::to_string(g.size) +
                                  " ranks; more than " + std::to_string(kMaxRanks) + " is not a real run");
            return;
        }
        if (g.isWorld) {
            if (m_world && m_world->first != g.size)
                m_in.errors.push_back(r.path + ": world size " + std::to_string(g.size) + " but " + m_world->second +
                                      " has " + std::to_string(m_world->first) + " (traces of different runs mixed?)");
            else if (!m_world)
                m_world = {g.size, r.path};
            continue;
        }
        const std::string name(s.name(g.name));
        const auto members = parseRankList(s.name(g.ranks));
        if (!members)
            continue;
        if (g.size >= 0 && size_t(g.size) != members->size()) {
            m_in.errors.push_back(r.path + ": distributedInfo.pg_config group \"" + name + "\": pg_size " +
                                  std::to_string(g.size) + " but ranks lists " + std::to_string(members->size()));
            continue;
        }
        auto [it, fresh] = m_pgConfig.try_emplace(name, *members, r.path);
        if (!fresh && it->second.first != *members)
            m_in.errors.push_back(r.path + ": process group \"" + name + "\" has ranks [" +
                                  ranksText(*members, SIZE_MAX) + "] but " + it->second.second + " gives [" +
                                  ranksText(it->second.first, SIZE_MAX) + "] (traces of different runs mixed?)");
    }
}

// The members of a record's group: its own ranks list, else pg_config, else all ranks when its
// size is the world's. An error when the list contradicts `Group size` or leaves out the rank.
std::shared_ptr<const std::vector<int>> Gatherer::checkedMembers(const Report &r, const CollectiveRecord &c, int rank)
{
    const auto key = std::tuple{c.groupName, c.groupRanks, c.groupSize};
    if (auto it = m_members.find(key); it != m_members.end())
        return it->second;
    auto members = membersOf(r, c, rank);
    m_members.emplace(key, members);
    return members;
}

std::shared_ptr<const std::vector<int>> Gatherer::membersOf(const Report &r, const CollectiveRecord &c, int rank)
{
    const EventStore &s = *r.store;
    std::optional<std::vector<int>> members = parseRankList(s.name(c.groupRanks));
    if (members && c.groupSize >= 0 && size_t(c.groupSize) != members->size()) {
        m_in.errors.push_back(recordPlace(r, c) + ": `Group size` " + std::to_string(c.groupSize) +
                              " but `Process Group Ranks` lists " + std::to_string(members->size()) + " ranks");
        return nullptr;
    }
    if (!members)
        if (auto it = m_pgConfig.find(std::string(s.name(c.groupName))); it != m_pgConfig.end())
            members = it->second.first;
    if (!members && m_world && c.groupSize == m_world->first) {
        members = std::vector<int>(size_t(std::max(0, c.groupSize)));
        std::iota(members->begin(), members->end(), 0);
    }
    if (members && c.groupSize >= 0 && size_t(c.groupSize) != members->size()) {
        m_in.errors.push_back(recordPlace(r, c) + ": `Group size` " + std::to_string(c.groupSize) +
                              " but distributedInfo.pg_config lists " + std::to_string(members->size()) + " ranks");
        return nullptr;
    }
    if (members && !std::binary_search(members->begin(), members->end(), rank)) {
        m_in.errors.push_back(recordPlace(r, c) + ": rank " + std::to_string(rank) + " is not in its group [" +
                              ranksText(*members, SIZE_MAX) + "]");
        return nullptr;
    }
    return members ? std::make_shared<const std::vector<int>>(std::move(*members)) : nullptr;
}

std::vector<Observed> *Gatherer::addTo(const std::string &key, int rank, const Communicator &shape,
                                       const std::string &origin)
{
    auto [it, fresh] = m_in.communicators.try_emplace(key, shape);
    Communicator &c = it->second;
    // Members are compared once per report and communicator (they are shared within a report).
    const bool check =
        !fresh && shape.members && c.members && shape.members != c.members && m_checkedKeys.insert(key).second;
    if (check && *shape.members != *c.members) {
        m_in.errors.push_back(origin + ": group \"" + c.name + "\" has ranks [" + ranksText(*shape.members, SIZE_MAX) +
                              "] here but [" + ranksText(*c.members, SIZE_MAX) +
                              "] in another report (traces of different runs mixed?)");
        return nullptr;
    }
    if (!c.members && shape.members)
        c.members = shape.members;
    if (c.size < 0)
        c.size = shape.size;
    return &c.byRank[rank];
}

// The rank's list of the communicator a record belongs to (see collectives.h for the keys),
// worked out once per report and shape of record; null after an error.
std::vector<Observed> *Gatherer::listFor(size_t report, int rank, const CollectiveRecord &c, const OpInfo &op,
                                         const std::vector<int> &streamOrdinal)
{
    const Report &r = *m_reports[report];
    const EventStore &s = *r.store;
    Communicator shape;
    if (c.source == CollectiveSource::KernelName) {
        const auto it = std::find(streamOrdinal.begin(), streamOrdinal.end(), int(c.stream));
        shape.name = "nccl stream #" + std::to_string(it - streamOrdinal.begin());
        shape.orderMethod = MatchMethod::StreamOrder;
        shape.nameOnly = true;
        return addTo(shape.name, rank, shape, r.path);
    }
    shape.name = c.groupName ? std::string(s.name(c.groupName)) : std::string("(no group)");
    shape.desc = std::string(s.name(c.groupDesc));
    shape.size = c.groupSize;
    if (c.source == CollectiveSource::KernelArgs) {
        shape.members = checkedMembers(r, c, rank);
        if (!m_in.errors.empty())
            return nullptr;
    }
    if (op.kind == CollectiveKind::SendRecv) {
        // A pair's sends and receives are matched in order between the two ranks.
        shape.pointToPoint = true;
        if (c.peer >= 0) {
            const int a = std::min(rank, int(c.peer)), b = std::max(rank, int(c.peer));
            shape.name += " p2p " + std::to_string(a) + "<->" + std::to_string(b);
            shape.members = std::make_shared<const std::vector<int>>(std::vector<int>{a, b});
            shape.size = 2;
        } else {
            shape.name += " p2p";
            shape.members.reset();
            shape.unmatchable = "send/recv without its peer rank: which two ranks took part is not recorded";
        }
    }
    return addTo(shape.name, rank, shape, recordPlace(r, c));
}

// What an op name is, classified once per report and name.
const OpInfo &Gatherer::opInfo(const EventStore &s, const CollectiveRecord &c)
{
    const uint64_t key = uint64_t(c.op) << 1 | (c.source == CollectiveSource::KernelName ? 1 : 0);
    if (m_lastOp && m_lastOp->first == key) // a report's records mostly repeat one op
        return m_lastOp->second;
    auto [it, fresh] = m_ops.try_emplace(key);
    m_lastOp = &*it;
    if (fresh) {
        std::string_view name = s.name(c.op);
        if (c.source == CollectiveSource::KernelName)
            if (const std::string_view op = trace::collectiveOpOfKernel(name); !op.empty())
                name = op;
        it->second = {name, collectiveKind(name)};
    }
    return it->second;
}

void Gatherer::addRecord(size_t report, int rank, size_t record, const std::vector<int> &streamOrdinal)
{
    const CollectiveRecord &c = m_reports[report]->store->collectives()[record];
    const EventStore &s = *m_reports[report]->store;
    const OpInfo &op = opInfo(s, c);
    Observed o{uint32_t(report),         uint32_t(record),       rank,  c.event,
               c.start + offset(report), c.end + offset(report), c.seq, op.name};
    if (c.dtype != m_lastDtype.first) // records of a report mostly share one dtype
        m_lastDtype = {c.dtype, dtypeBytes(s.name(c.dtype))};
    const int64_t n = op.kind == CollectiveKind::AllGather ? c.outNelems : c.inNelems;
    if (m_lastDtype.second && n >= 0)
        o.bytesOrNone = uint64_t(n) * uint64_t(*m_lastDtype.second);
    const ShapeKey k{c.source,
                     c.groupName,
                     c.groupRanks,
                     c.groupDesc,
                     c.groupSize,
                     op.kind == CollectiveKind::SendRecv ? c.peer : -2,
                     c.source == CollectiveSource::KernelName ? c.stream : 0u};
    if (!m_lastList || !(m_lastList->first == k)) { // and mostly one shape after another
        auto it = m_lists.find(k);
        if (it == m_lists.end()) {
            it = m_lists.emplace(k, listFor(report, rank, c, op, streamOrdinal)).first;
            // Sized for the rest of the report's records (most have one group); trimmed after it.
            if (it->second)
                it->second->reserve(it->second->size() + (m_records - record));
        }
        m_lastList = &*it;
    }
    if (m_lastList->second)
        m_lastList->second->push_back(o);
}

void Gatherer::run()
{
    // The store's records: the reader's, or kernels known by their NCCL/RCCL names
    // (StoreBuilder records those), so a digest opened without its events has them too.
    std::vector<size_t> withData;
    for (size_t i = 0; i < m_reports.size(); ++i) {
        if (!m_reports[i]->store->collectives().empty())
            withData.push_back(i);
        else
            m_in.notes.push_back(m_reports[i]->path + ": no collective kernels (no NCCL/RCCL kernel, c10d kernel "
                                                      "args or HCCL op)");
    }
    std::vector<int> &ranks = m_in.reportRanks;
    ranks.assign(m_reports.size(), -1);
    if (!resolveRanks(withData, ranks))
        return;
    for (size_t i : withData)
        readGroups(i);
    if (m_world)
        m_in.worldSize = m_world->first;
    for (size_t i : withData) {
        if (!m_in.errors.empty() || (m_cancel && m_cancel->cancelled()))
            return;
        const std::span<const CollectiveRecord> recs = m_reports[i]->store->collectives();
        // NCCL streams numbered by their first collective, for kernels known by name only.
        std::map<int, int64_t> firstOf; // stream -> its first start
        for (const CollectiveRecord &c : recs)
            if (c.source == CollectiveSource::KernelName) {
                auto [it, fresh] = firstOf.try_emplace(int(c.stream), c.start);
                it->second = std::min(it->second, c.start);
            }
        std::vector<std::pair<int64_t, int>> firsts;
        for (const auto &[stream, start] : firstOf)
            firsts.emplace_back(start, stream);
        std::sort(firsts.begin(), firsts.end());
        std::vector<int> streams;
        for (const auto &f : firsts)
            streams.push_back(f.second);
        m_in.ranks.insert(ranks[i]);
        m_members.clear();
        m_checkedKeys.clear();
        m_ops.clear();
        m_lastOp = nullptr;
        m_lastDtype = {trace::kNoName, dtypeBytes("")};
        m_lists.clear();
        m_lastList = nullptr;
        m_records = recs.size();
        for (size_t k = 0; k < recs.size(); ++k)
            addRecord(i, ranks[i], k, streams);
        for (const auto &[key, list] : m_lists) // reserved for more than they got
            if (list && list->capacity() > list->size() + list->size() / 4 + 64)
                list->shrink_to_fit();
    }
}

} // namespace

std::string ranksText(const std::vector<int> &ranks, size_t limit)
{
    std::string s;
    for (size_t i = 0; i < ranks.size() && i < limit; ++i)
        s += (i ? ", " : "") + std::to_string(ranks[i]);
    if (ranks.size() > limit)
        s += ", ... (" + std::to_string(ranks.size()) + " ranks)";
    return s;
}

CollectiveInput gatherCollectives(std::span<const trace::ReportPtr> reports, std::span<const int64_t> offsets,
                                  const trace::CancelToken *cancel)
{
    CollectiveInput in;
    Gatherer(reports, offsets, in, cancel).run();
    if (!in.errors.empty())
        in.communicators.clear();
    return in;
}

} // namespace ps::core::analysis::detail
