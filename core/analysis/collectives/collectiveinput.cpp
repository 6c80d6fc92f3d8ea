#include "core/analysis/collectives/collectiveinput.h"

#include "core/analysis/collectives/collectivekinds.h"
#include "core/common/canceltoken.h"

#include <algorithm>
#include <charconv>
#include <compare>
#include <numeric>
#include <tuple>

namespace ps::core::analysis::detail {

using trace::CollectiveSource;

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

class Gatherer
{
public:
    Gatherer(std::vector<ReportCollectives> &reports, std::span<const int64_t> offsets, CollectiveInput &in,
             const core::CancelToken *cancel)
        : m_reports(reports), m_offsets(offsets), m_in(in), m_cancel(cancel)
    {
    }
    void run();

private:
    bool resolveRanks(const std::vector<size_t> &withData, std::vector<int> &ranks);
    void readGroups(size_t report);
    void addShape(size_t report, int rank, RecordShape &shape, const std::shared_ptr<const Placement> &place);
    Communicator *addTo(const std::string &key, int rank, const Communicator &shape, const std::string &origin);
    Communicator *communicatorOf(size_t report, int rank, const RecordShape &s);
    std::shared_ptr<const std::vector<int>> membersOf(const RecordShape &s, int rank);
    std::shared_ptr<const std::vector<int>> checkedMembers(const RecordShape &s, int rank);
    std::vector<uint32_t> internOps(const ReportCollectives &r);
    int64_t offset(size_t report) const { return report < m_offsets.size() ? m_offsets[report] : 0; }

    std::vector<ReportCollectives> &m_reports;
    std::span<const int64_t> m_offsets;
    CollectiveInput &m_in;
    const core::CancelToken *m_cancel;
    std::map<std::string, std::pair<std::vector<int>, std::string>> m_pgConfig; // name -> members, origin
    std::optional<std::pair<int, std::string>> m_world;                         // size, origin
    std::map<std::string, uint32_t, std::less<>> m_opIndex;
    // Per report: members by (group name, ranks text, size), so each is parsed and checked once,
    // and the communicators whose members this report has been checked against.
    std::map<std::tuple<std::string, std::string, int32_t>, std::shared_ptr<const std::vector<int>>> m_members;
    std::set<std::string> m_checkedKeys;
};

// Each report's rank (identity, else the file's own); a report without one is numbered by its
// position only when no report has a rank. Two reports of one rank are an error.
bool Gatherer::resolveRanks(const std::vector<size_t> &withData, std::vector<int> &ranks)
{
    const bool anyRank =
        std::any_of(withData.begin(), withData.end(), [&](size_t r) { return m_reports[r].rank.has_value(); });
    std::map<int, size_t> seen;
    for (size_t i = 0; i < withData.size(); ++i) {
        const ReportCollectives &r = m_reports[withData[i]];
        if (!r.rank && anyRank) {
            m_in.errors.push_back(r.path + ": no rank (distributedInfo.rank, or rank-N in the file or folder name), "
                                           "while other reports have one");
            continue;
        }
        const int rank = r.rank.value_or(int(i));
        if (auto [it, fresh] = seen.emplace(rank, withData[i]); !fresh)
            m_in.errors.push_back(r.path + ": rank " + std::to_string(rank) + " appears twice (also " +
                                  m_reports[it->second].path +
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
    const ReportCollectives &r = m_reports[report];
    for (const DeclaredGroup &g : r.groups) {
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
        const auto members = parseRankList(g.ranks);
        if (!members)
            continue;
        if (g.size >= 0 && size_t(g.size) != members->size()) {
            m_in.errors.push_back(r.path + ": distributedInfo.pg_config group \"" + g.name + "\": pg_size " +
                                  std::to_string(g.size) + " but ranks lists " + std::to_string(members->size()));
            continue;
        }
        auto [it, fresh] = m_pgConfig.try_emplace(g.name, *members, r.path);
        if (!fresh && it->second.first != *members)
            m_in.errors.push_back(r.path + ": process group \"" + g.name + "\" has ranks [" +
                                  ranksText(*members, SIZE_MAX) + "] but " + it->second.second + " gives [" +
                                  ranksText(it->second.first, SIZE_MAX) + "] (traces of different runs mixed?)");
    }
}

// The members of a shape's group: its own ranks list, else pg_config, else all ranks when its
// size is the world's. An error when the list contradicts `Group size` or leaves out the rank.
std::shared_ptr<const std::vector<int>> Gatherer::checkedMembers(const RecordShape &s, int rank)
{
    auto key = std::tuple{s.hasGroup ? s.group : std::string(), s.ranks, s.size};
    if (auto it = m_members.find(key); it != m_members.end())
        return it->second;
    auto members = membersOf(s, rank);
    m_members.emplace(std::move(key), members);
    return members;
}

std::shared_ptr<const std::vector<int>> Gatherer::membersOf(const RecordShape &s, int rank)
{
    std::optional<std::vector<int>> members = parseRankList(s.ranks);
    if (members && s.size >= 0 && size_t(s.size) != members->size()) {
        m_in.errors.push_back(s.place + ": `Group size` " + std::to_string(s.size) +
                              " but `Process Group Ranks` lists " + std::to_string(members->size()) + " ranks");
        return nullptr;
    }
    if (!members)
        if (auto it = m_pgConfig.find(s.group); it != m_pgConfig.end())
            members = it->second.first;
    if (!members && m_world && s.size == m_world->first) {
        members = std::vector<int>(size_t(std::max(0, s.size)));
        std::iota(members->begin(), members->end(), 0);
    }
    if (members && s.size >= 0 && size_t(s.size) != members->size()) {
        m_in.errors.push_back(s.place + ": `Group size` " + std::to_string(s.size) +
                              " but distributedInfo.pg_config lists " + std::to_string(members->size()) + " ranks");
        return nullptr;
    }
    if (members && !std::binary_search(members->begin(), members->end(), rank)) {
        m_in.errors.push_back(s.place + ": rank " + std::to_string(rank) + " is not in its group [" +
                              ranksText(*members, SIZE_MAX) + "]");
        return nullptr;
    }
    return members ? std::make_shared<const std::vector<int>>(std::move(*members)) : nullptr;
}

Communicator *Gatherer::addTo(const std::string &key, int rank, const Communicator &shape, const std::string &origin)
{
    auto [it, fresh] = m_in.communicators.try_emplace(key);
    if (fresh) { // the shape's facts; its lists stay empty (a queue is not copied)
        Communicator &c = it->second;
        c.name = shape.name;
        c.desc = shape.desc;
        c.orderMethod = shape.orderMethod;
        c.unmatchable = shape.unmatchable;
        c.nameOnly = shape.nameOnly;
        c.pointToPoint = shape.pointToPoint;
    }
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
    c.byRank.try_emplace(rank);
    return &c;
}

// The communicator a shape of record belongs to (see collectives.h for the keys); null after an
// error.
Communicator *Gatherer::communicatorOf(size_t report, int rank, const RecordShape &s)
{
    Communicator shape;
    if (s.source == CollectiveSource::KernelName) {
        shape.name = "nccl stream #" + std::to_string(s.streamOrdinal);
        shape.orderMethod = MatchMethod::StreamOrder;
        shape.nameOnly = true;
        return addTo(shape.name, rank, shape, m_reports[report].path);
    }
    shape.name = s.hasGroup ? s.group : std::string("(no group)");
    shape.desc = s.desc;
    shape.size = s.size;
    if (s.source == CollectiveSource::HcclOp)
        shape.orderMethod = MatchMethod::HcclGroup;
    if (s.source == CollectiveSource::NvtxPayload)
        shape.orderMethod = MatchMethod::NvtxPayload;
    if (s.source == CollectiveSource::KernelArgs) {
        shape.members = checkedMembers(s, rank);
        if (!m_in.errors.empty())
            return nullptr;
    }
    if (s.peer != -2) {
        // A pair's sends and receives are matched in order between the two ranks.
        shape.pointToPoint = true;
        if (s.source == CollectiveSource::NvtxPayload) {
            shape.name += " p2p";
            shape.members.reset();
            shape.unmatchable = "send/recv: NCCL's payload names the peer by its rank in the communicator, which "
                                "the export does not map to a global rank";
        } else if (s.peer >= 0) {
            const int a = std::min(rank, int(s.peer)), b = std::max(rank, int(s.peer));
            shape.name += " p2p " + std::to_string(a) + "<->" + std::to_string(b);
            shape.members = std::make_shared<const std::vector<int>>(std::vector<int>{a, b});
            shape.size = 2;
        } else {
            shape.name += " p2p";
            shape.members.reset();
            shape.unmatchable = "send/recv without its peer rank: which two ranks took part is not recorded";
        }
    }
    return addTo(shape.name, rank, shape, s.place);
}

// The report's op names as indexes into the run's.
std::vector<uint32_t> Gatherer::internOps(const ReportCollectives &r)
{
    std::vector<uint32_t> index;
    for (const std::string &op : r.ops) {
        auto [it, fresh] = m_opIndex.try_emplace(op, uint32_t(m_in.ops.size()));
        if (fresh) {
            m_in.ops.push_back(op);
            m_in.kinds.push_back(collectiveKind(op));
        }
        index.push_back(it->second);
    }
    return index;
}

void Gatherer::addShape(size_t report, int rank, RecordShape &shape, const std::shared_ptr<const Placement> &place)
{
    Communicator *c = communicatorOf(report, rank, shape);
    if (!c)
        return;
    shape.records->place(place);
    RankRecords &list = c->byRank[rank];
    list.report = uint32_t(report);
    if (!list.records)
        list.records = std::move(shape.records);
    else
        list.records = HeldRecords::concatenation(*list.records, *shape.records);
}

void Gatherer::run()
{
    std::vector<size_t> withData;
    for (size_t i = 0; i < m_reports.size(); ++i) {
        if (!m_reports[i].error.empty())
            m_in.errors.push_back(m_reports[i].error);
        else if (m_reports[i].records > 0)
            withData.push_back(i);
        else
            m_in.notes.push_back(m_reports[i].path + ": no collective kernels (no NCCL/RCCL kernel, c10d kernel "
                                                     "args or HCCL op)");
    }
    std::vector<int> &ranks = m_in.reportRanks;
    ranks.assign(m_reports.size(), -1);
    if (!m_in.errors.empty() || !resolveRanks(withData, ranks))
        return;
    for (size_t i : withData)
        readGroups(i);
    if (m_world)
        m_in.worldSize = m_world->first;
    for (size_t i : withData) {
        if (!m_in.errors.empty() || (m_cancel && m_cancel->cancelled()))
            return;
        m_in.ranks.insert(ranks[i]);
        m_members.clear();
        m_checkedKeys.clear();
        auto place = std::make_shared<Placement>();
        place->offset = offset(i);
        place->ops = internOps(m_reports[i]);
        for (RecordShape &shape : m_reports[i].shapes)
            if (m_in.errors.empty())
                addShape(i, ranks[i], shape, place);
        m_reports[i].shapes.clear(); // folded in
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

CollectiveInput gatherCollectives(std::vector<ReportCollectives> &reports, std::span<const int64_t> offsets,
                                  const core::CancelToken *cancel)
{
    CollectiveInput in;
    Gatherer(reports, offsets, in, cancel).run();
    if (!in.errors.empty())
        in.communicators.clear();
    return in;
}

} // namespace ps::core::analysis::detail
