#include "core/trace/nsys/nsysnccl.h"

#include "core/trace/nsys/nsysmetadata.h"
#include "core/trace/nsys/nvtxeventtype.h"
#include "core/trace/read/readonlysqlite.h"
#include "core/trace/store/collectiverecord.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

namespace ps::core::trace::nsys {

namespace {

constexpr size_t kHeaderBytes = 32;     // binaryData: header, then the payload struct
constexpr size_t kSchemaIdOffset = 8;   // u32 schema id in the header
constexpr size_t kMaxPayloadBytes = 64; // NCCL's structs are a few fields; more is not NCCL's

struct Entry
{
    std::string name;
    int64_t type = 0;
    size_t offset = 0;
    size_t size = 0; // 0: not a scalar this reader knows
};

// Bytes of an NVTX payload entry type (nvToolsExtPayload.h); NCCL's reduction op is an enum
// schema of its own, stored as an int.
size_t entrySize(int64_t type)
{
    switch (type) {
    case 1:
    case 2:
    case 11:
    case 12:
        return 1;
    case 3:
    case 4:
    case 13:
    case 14:
        return 2;
    case 5:
    case 6:
    case 15:
    case 16:
    case 19:
        return 4;
    case 7:
    case 8:
    case 9:
    case 10:
    case 17:
    case 18:
    case 20:
    case 21:
    case 22:
        return 8;
    default:
        return type >= (int64_t(1) << 24) ? 4 : 0;
    }
}

using SchemaKey = std::pair<int64_t, int64_t>; // domainId, schemaId

// The schemas' entries, offsets filled in by natural alignment where the export leaves them NULL.
std::map<SchemaKey, std::vector<Entry>> readSchemas(const ReadOnlySqlite &db)
{
    std::map<SchemaKey, std::vector<Entry>> schemas;
    const std::set<std::string> c = db.columnSet("NVTX_PAYLOAD_SCHEMA_ENTRIES");
    std::string error;
    SqliteStmt s = db.prepare("SELECT " + column(c, "domainId", "0") + ", " + column(c, "schemaId", "0") + ", " +
                                  column(c, "type", "0") + ", " + column(c, "name") + ", " + column(c, "offset") +
                                  " FROM NVTX_PAYLOAD_SCHEMA_ENTRIES ORDER BY 1, 2, " + column(c, "idx", "rowid"),
                              error);
    while (s.get() && s.step()) {
        std::vector<Entry> &entries = schemas[{s.int64(0), s.int64(1)}];
        Entry e{std::string(s.text(3)), s.int64(2), 0, entrySize(s.int64(2))};
        if (!s.isNull(4)) {
            e.offset = size_t(std::max<int64_t>(0, s.int64(4)));
        } else if (!entries.empty()) {
            const Entry &prev = entries.back();
            const size_t end = prev.offset + std::max<size_t>(prev.size, 1);
            const size_t align = std::max<size_t>(e.size, 1);
            e.offset = (end + align - 1) / align * align;
        }
        entries.push_back(std::move(e));
    }
    return schemas;
}

// binaryData as stored (a BLOB), or as the hex text some exporters write.
std::string payloadBytes(std::string_view v, bool isText)
{
    const auto hex = [](char ch) -> int {
        return ch >= '0' && ch <= '9'   ? ch - '0'
               : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
               : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                        : -1;
    };
    if (!isText || v.size() % 2 != 0 || !std::all_of(v.begin(), v.end(), [&](char ch) { return hex(ch) >= 0; }))
        return std::string(v);
    std::string out(v.size() / 2, '\0');
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = char(hex(v[2 * i]) * 16 + hex(v[2 * i + 1]));
    return out;
}

uint64_t readUnsigned(std::string_view bytes, size_t at, size_t size)
{
    uint64_t v = 0;
    std::memcpy(&v, bytes.data() + at, size); // little-endian, as the exporting host wrote it
    return v;
}

struct Range
{
    int64_t start = 0, end = 0, tid = 0;
    NcclCall call;
    bool isInit = false; // ncclCommInitRank...: gives the communicator's size
};

// The payload's fields by NCCL's entry names (nvtx_payload_schemas.h); false when it does not decode.
bool decode(std::string_view data, const std::vector<Entry> &entries, Range &r)
{
    for (const Entry &e : entries) {
        if (e.size == 0 || kHeaderBytes + e.offset + e.size > data.size())
            continue;
        const uint64_t v = readUnsigned(data, kHeaderBytes + e.offset, e.size);
        if (e.name == "NCCL communicator ID") {
            r.call.comm = v;
            r.call.hasComm = true;
        } else if (e.name == "Message size [bytes]") {
            r.call.bytes = int64_t(v);
        } else if (e.name == "Peer rank") {
            r.call.peer = int32_t(v);
        } else if (e.name == "Root") {
            r.call.root = int32_t(v);
        } else if (e.name == "No. of ranks") {
            r.call.ranks = int32_t(v);
            r.isInit = true;
        }
    }
    return r.call.hasComm || r.call.bytes >= 0;
}

// "ncclAllReduce" -> "allreduce"; "" for calls that launch no collective (ncclGroupEnd, ...).
std::string opOfCall(std::string_view name)
{
    if (!name.starts_with("nccl"))
        return {};
    const std::string kernel = "ncclKernel_" + std::string(name.substr(4));
    const std::string_view op = collectiveOpOfKernel(kernel);
    return op == "nccl" ? std::string() : std::string(op);
}

std::set<std::pair<uint32_t, int64_t>> ncclDomains(const ReadOnlySqlite &db, const std::set<std::string> &c)
{
    std::set<std::pair<uint32_t, int64_t>> domains;
    std::string error;
    SqliteStmt s =
        db.prepare("SELECT " + column(c, "globalTid", "0") + ", " + column(c, "domainId", "0") +
                       " FROM NVTX_EVENTS WHERE eventType = " + std::to_string(number(NvtxEventType::DomainCreate)) +
                       " AND (" + column(c, "text", "NULL") + " = 'NCCL'" +
                       (c.count("textId") ? " OR textId IN (SELECT id FROM StringIds WHERE value = 'NCCL')" : "") + ")",
                   error);
    while (s.get() && s.step())
        domains.emplace(pidOf(s.int64(0)), s.int64(1));
    return domains;
}

std::vector<Range> readRanges(const ReadOnlySqlite &db, const std::set<std::string> &tables)
{
    const std::set<std::string> c = db.columnSet("NVTX_EVENTS");
    if (!c.count("binaryData") || !c.count("domainId"))
        return {};
    const auto domains = ncclDomains(db, c);
    if (domains.empty())
        return {};
    const auto schemas = readSchemas(db);
    const std::string name =
        c.count("textId") && tables.count("StringIds")
            ? "COALESCE(" + column(c, "text") + ", (SELECT value FROM StringIds WHERE id = textId))"
            : column(c, "text");
    std::string error;
    SqliteStmt s = db.prepare("SELECT start, " + column(c, "end", "start") + ", " + column(c, "globalTid", "0") +
                                  ", domainId, " + name + ", binaryData, typeof(binaryData) = 'text' FROM NVTX_EVENTS" +
                                  " WHERE eventType IN (" + std::to_string(number(NvtxEventType::PushPopRange)) + ", " +
                                  std::to_string(number(NvtxEventType::StartEndRange)) + ") AND binaryData IS NOT NULL",
                              error);
    std::vector<Range> ranges;
    while (s.get() && s.step()) {
        if (!domains.count({pidOf(s.int64(2)), s.int64(3)}))
            continue;
        const std::string data = payloadBytes(s.text(5), s.int64(6) != 0);
        if (data.size() < kHeaderBytes || data.size() > kHeaderBytes + kMaxPayloadBytes * 16)
            continue;
        const auto schema = schemas.find({s.int64(3), int64_t(readUnsigned(data, kSchemaIdOffset, 4))});
        Range r{s.int64(0), s.int64(1), s.int64(2), {}, false};
        r.call.op = opOfCall(s.text(4));
        if (schema == schemas.end() || !decode(data, schema->second, r) || (r.call.op.empty() && !r.isInit))
            continue;
        ranges.push_back(std::move(r));
    }
    return ranges;
}

// nccl-tests' S from NCCL's per-rank message size (spec A2, A4).
void totalBytes(NcclCall &call)
{
    const bool perRank = call.op == "allgather" || call.op == "reducescatter" || call.op == "alltoall";
    if (perRank)
        call.bytes = call.bytes >= 0 && call.ranks > 0 && call.bytes <= INT64_MAX / call.ranks
                         ? call.bytes * call.ranks
                         : -1; // a product that would overflow is no message size (the builder says so)
}

} // namespace

namespace {

std::unordered_map<uint32_t, NcclCall> readNcclCalls(const ReadOnlySqlite &db, const std::set<std::string> &tables)
{
    std::unordered_map<uint32_t, NcclCall> calls;
    if (!tables.count("NVTX_EVENTS") || !tables.count("NVTX_PAYLOAD_SCHEMA_ENTRIES") ||
        !tables.count("CUPTI_ACTIVITY_KIND_RUNTIME"))
        return calls;
    std::vector<Range> ranges = readRanges(db, tables);
    std::map<uint64_t, int32_t> commRanks;
    for (const Range &r : ranges)
        if (r.isInit && r.call.hasComm && r.call.ranks > 0)
            commRanks[r.call.comm] = r.call.ranks;
    std::erase_if(ranges, [](const Range &r) { return r.call.op.empty(); });
    if (ranges.empty())
        return calls;
    for (Range &r : ranges) {
        if (auto it = commRanks.find(r.call.comm); r.call.hasComm && it != commRanks.end())
            r.call.ranks = it->second;
        totalBytes(r.call);
    }
    std::sort(ranges.begin(), ranges.end(),
              [](const Range &a, const Range &b) { return std::tie(a.tid, a.start) < std::tie(b.tid, b.start); });
    // Each runtime call on a thread with NCCL ranges goes to the latest-starting range holding it.
    const std::set<std::string> c = db.columnSet("CUPTI_ACTIVITY_KIND_RUNTIME");
    std::string error;
    SqliteStmt s = db.prepare("SELECT start, " + column(c, "globalTid", "0") + ", " + column(c, "correlationId", "0") +
                                  " FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY 2, 1",
                              error);
    while (s.get() && s.step()) {
        const int64_t start = s.int64(0), tid = s.int64(1);
        auto it =
            std::upper_bound(ranges.begin(), ranges.end(), std::pair{tid, start}, [](const auto &key, const Range &r) {
                return std::tie(key.first, key.second) < std::tie(r.tid, r.start);
            });
        if (it == ranges.begin())
            continue;
        const Range &r = *std::prev(it);
        if (r.tid == tid && start <= r.end)
            calls.emplace(uint32_t(s.int64(2)), r.call);
    }
    return calls;
}

// The kernel names NCCL's kernels go by, as the kernel chunks name them (nsysjobplan.cpp).
std::unordered_set<NameId> ncclKernelNames(const ReadOnlySqlite &db, const std::vector<NameId> &strings)
{
    std::unordered_set<NameId> names;
    const std::set<std::string> c = db.columnSet("CUPTI_ACTIVITY_KIND_KERNEL");
    const char *full = c.count("demangledName") ? "demangledName" : c.count("shortName") ? "shortName" : nullptr;
    if (!full)
        return names;
    std::string error;
    SqliteStmt s = db.prepare(std::string("SELECT id, value FROM StringIds WHERE value LIKE '%nccl%' AND id IN "
                                          "(SELECT DISTINCT ") +
                                  full + " FROM CUPTI_ACTIVITY_KIND_KERNEL)",
                              error);
    while (s.get() && s.step())
        if (!collectiveOpOfKernel(s.text(1)).empty())
            names.insert(mapString(strings, s.int64(0)));
    return names;
}

} // namespace

NcclLaunches readNcclLaunches(const ReadOnlySqlite &db, const std::set<std::string> &tables,
                              const std::vector<NameId> &strings)
{
    NcclLaunches out;
    out.calls = readNcclCalls(db, tables);
    if (!out.calls.empty() && tables.count("StringIds") && tables.count("CUPTI_ACTIVITY_KIND_KERNEL"))
        out.kernelNames = ncclKernelNames(db, strings);
    if (out.kernelNames.empty())
        out.calls.clear();
    return out;
}

} // namespace ps::core::trace::nsys
