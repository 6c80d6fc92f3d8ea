// Collectives of nsys exports matched by NCCL's own NVTX ranges and payloads (spec A4,
// core/trace/nsys/nsysnccl.h), on per-rank SQLite exports written here with the real schema: the
// demo's CREATE TABLE statements (copied from real exports), NVTX_EVENTS with nsys 2026's
// binaryData and eventId columns, and the payload schema tables NCCL's schemas fill. Each rank
// runs a synchronous loop: compute, then an allreduce on the world communicator and an allgather
// on its pair's communicator. Every call is an `ncclAllReduce` / `ncclAllGather` push/pop range
// on the CPU thread around the cudaLaunchKernel whose correlationId its kernel carries; the
// kernel ends on every member when the last one arrives plus the transfer. Rank 2 computes 10 ms
// longer in steps 2-4, so the others wait for it in the allreduce.

#include "core/demo/nsysschema.h"
#include "tests/support/clirun.h"

#include <sqlite3.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

constexpr int kRanks = 4, kSteps = 6, kLate = 2;
constexpr int64_t kComputeNs = 20'000'000, kLateNs = 10'000'000;
constexpr int64_t kAllreduceTransferNs = 4'000'000, kAllgatherTransferNs = 1'000'000;
constexpr uint64_t kAllreduceBytes = 64ull << 20, kAllgatherBytes = 8ull << 20; // per rank, as NCCL passes them
constexpr uint64_t kWorldComm = 0xC0FFEE0000000001ull;
constexpr int64_t kNcclDomain = 7;
constexpr int64_t kStaticSchema = int64_t(1) << 24; // NVTX_PAYLOAD_ENTRY_TYPE_SCHEMA_ID_STATIC_START
constexpr int64_t kSidCommInitRank = 0, kSidAllGather = 4, kSidAllReduce = 5;

uint64_t pairComm(int rank)
{
    return 0xBEEF000000000000ull + uint64_t(rank / 2);
}

// nsys 2026.4's NVTX_EVENTS (the real 2022 columns, then binaryData and eventId) and the payload
// schema tables, as the SQLite Schema Reference declares them.
const char *const kPayloadTables[] = {
    R"sql(CREATE TABLE NVTX_EVENTS (
        start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER,
        color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER REFERENCES StringIds(id),
        domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,
        int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT,
        eventId INTEGER NOT NULL PRIMARY KEY))sql",
    R"sql(CREATE TABLE NVTX_PAYLOAD_SCHEMAS (
        domainId INTEGER, schemaId INTEGER, name TEXT, type INTEGER, flags INTEGER, numEntries INTEGER,
        payloadSize INTEGER, alignTo INTEGER))sql",
    R"sql(CREATE TABLE NVTX_PAYLOAD_SCHEMA_ENTRIES (
        domainId INTEGER, schemaId INTEGER, idx INTEGER, flags INTEGER, type INTEGER, name TEXT, description TEXT,
        arrayOrUnionDetail INTEGER, offset INTEGER))sql",
};

struct SchemaEntry
{
    int64_t type;
    const char *name;
    int64_t offset; // -1: NULL, as exports leave the first (and NCCL's unaligned-free) offsets
};

// NCCL's schemas (nvtx_payload_schemas.h): communicator u64 (18), sizes size_t (22), ints (5),
// the reduction op an enum schema of NCCL's own.
const std::map<int64_t, std::vector<SchemaEntry>> &ncclSchemas()
{
    static const std::map<int64_t, std::vector<SchemaEntry>> s = {
        {kSidCommInitRank,
         {{18, "NCCL communicator ID", -1}, {5, "No. of ranks", -1}, {5, "Rank", -1}, {5, "CUDA device", -1}}},
        {kSidAllGather, {{18, "NCCL communicator ID", -1}, {22, "Message size [bytes]", 8}}},
        {kSidAllReduce,
         {{18, "NCCL communicator ID", -1},
          {22, "Message size [bytes]", 8},
          {kStaticSchema + 24, "Reduction operation", 16}}},
    };
    return s;
}

class Db
{
public:
    explicit Db(const std::string &path)
    {
        sqlite3_open(path.c_str(), &m_db);
        exec("PRAGMA journal_mode=OFF");
    }
    ~Db() { sqlite3_close(m_db); }
    void exec(const std::string &sql)
    {
        char *error = nullptr;
        if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
            qWarning("%s: %s", error, sql.c_str());
            sqlite3_free(error);
        }
    }
    // Binds ints (int64), texts (std::string) and blobs (std::vector<char>) in order.
    template <typename... Args> void row(const std::string &sql, const Args &...args)
    {
        sqlite3_stmt *s = nullptr;
        sqlite3_prepare_v2(m_db, sql.c_str(), -1, &s, nullptr);
        int i = 0;
        (bindOne(s, ++i, args), ...);
        if (sqlite3_step(s) != SQLITE_DONE)
            qWarning("%s: %s", sqlite3_errmsg(m_db), sql.c_str());
        sqlite3_finalize(s);
    }
    int64_t string(const std::string &value)
    {
        auto [it, fresh] = m_strings.try_emplace(value, int64_t(m_strings.size()));
        if (fresh)
            row("INSERT INTO StringIds VALUES (?, ?)", it->second, value);
        return it->second;
    }

private:
    static void bindOne(sqlite3_stmt *s, int i, int64_t v) { sqlite3_bind_int64(s, i, v); }
    static void bindOne(sqlite3_stmt *s, int i, const std::string &v)
    {
        sqlite3_bind_text(s, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
    }
    static void bindOne(sqlite3_stmt *s, int i, const std::vector<char> &v)
    {
        sqlite3_bind_blob(s, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
    }
    sqlite3 *m_db = nullptr;
    std::map<std::string, int64_t> m_strings;
};

// binaryData: a 32-byte header (the schema id at byte 8, the payload size at 16, the total at 24),
// then the payload struct.
std::vector<char> binaryData(int64_t schemaId, const std::vector<char> &payload)
{
    std::vector<char> b(32 + payload.size(), '\0');
    const uint32_t one = 1, sid = uint32_t(schemaId);
    const uint64_t size = payload.size(), total = b.size();
    std::memcpy(b.data(), &one, 4);
    std::memcpy(b.data() + 8, &sid, 4);
    std::memcpy(b.data() + 16, &size, 8);
    std::memcpy(b.data() + 24, &total, 8);
    std::memcpy(b.data() + 32, payload.data(), payload.size());
    return b;
}

template <typename T> void put(std::vector<char> &p, size_t at, T v)
{
    if (p.size() < at + sizeof v)
        p.resize(at + sizeof v, '\0');
    std::memcpy(p.data() + at, &v, sizeof v);
}

std::string hexOf(const std::vector<char> &b)
{
    static const char *digits = "0123456789abcdef";
    std::string s;
    for (char c : b) {
        s += digits[(uint8_t(c) >> 4) & 15];
        s += digits[uint8_t(c) & 15];
    }
    return s;
}

// What the generator computes per instance.
struct Expected
{
    int lastRank = -1;
    std::array<int64_t, kRanks> waitNs{};
    int64_t transferNs = 0;
};

class NsysLoopWriter
{
public:
    // `payloads`: NCCL's NVTX ranges with payloads (false: an export without them, NCCL < 2.16 or
    // NCCL_NVTX_DISABLE=1). Half the ranks store binaryData as a BLOB, half as hex text.
    void write(const std::string &dir, bool payloads)
    {
        for (int r = 0; r < kRanks; ++r)
            writeRank(dir + "/rank-" + std::to_string(r) + ".sqlite", r, payloads);
    }
    std::vector<Expected> allreduces, allgathers; // by step; allgathers of rank pair 0-1 and 2-3 alike

    NsysLoopWriter()
    {
        // The schedule all ranks share: when each arrives at each collective.
        int64_t t = 1'000'000'000;
        for (int step = 0; step < kSteps; ++step) {
            std::array<int64_t, kRanks> arrive{};
            for (int r = 0; r < kRanks; ++r)
                arrive[size_t(r)] = t + kComputeNs + int64_t((r * 5 + step * 3) % 7) * 100'000 +
                                    (r == kLate && step >= 2 && step <= 4 ? kLateNs : 0);
            const Expected ar = expect(arrive, kAllreduceTransferNs);
            allreduces.push_back(ar);
            const int64_t arEnd = arrive[size_t(ar.lastRank)] + kAllreduceTransferNs;
            std::array<int64_t, kRanks> gather{};
            for (int r = 0; r < kRanks; ++r)
                gather[size_t(r)] = arEnd + 200'000 + int64_t(r % 2) * 300'000;
            allgathers.push_back(expect(gather, kAllgatherTransferNs, true));
            m_steps.push_back({arrive, gather});
            t = arEnd + 5'000'000;
        }
    }

private:
    struct Step
    {
        std::array<int64_t, kRanks> allreduce, allgather;
    };
    // byPair: the ranks wait only for their pair's partner.
    static Expected expect(const std::array<int64_t, kRanks> &arrive, int64_t transfer, bool byPair = false)
    {
        Expected e;
        e.transferNs = transfer;
        for (int r = 0; r < kRanks; ++r) {
            const int peer = r ^ 1;
            const int64_t last = byPair ? std::max(arrive[size_t(r)], arrive[size_t(peer)])
                                        : *std::max_element(arrive.begin(), arrive.end());
            e.waitNs[size_t(r)] = last - arrive[size_t(r)];
        }
        e.lastRank = int(std::max_element(arrive.begin(), arrive.end()) - arrive.begin());
        return e;
    }

    void writeRank(const std::string &path, int rank, bool payloads)
    {
        Db db(path);
        for (const char *sql : ps::core::demo::nsysCreateStatements())
            if (!std::strstr(sql, "CREATE TABLE NVTX_EVENTS"))
                db.exec(sql);
        for (const char *sql : kPayloadTables)
            db.exec(sql);
        db.exec("BEGIN");
        db.row("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, '', '', 0)", int64_t(1'764'000'000'000'000'000));
        const int64_t pid = 1000 + rank, gtid = (pid << 24) | pid, gpid = pid << 24;
        db.row("INSERT INTO PROCESSES VALUES (?, ?, 'python')", gpid, pid);
        if (payloads)
            writeSchemas(db);
        m_event = 0;
        nvtx(db, gtid, 1, 1, 75, "NCCL", {}); // the domain, named
        if (payloads) {
            std::vector<char> p;
            put<uint64_t>(p, 0, kWorldComm), put<int32_t>(p, 8, kRanks), put<int32_t>(p, 12, rank);
            put<int32_t>(p, 16, rank);
            nvtx(db, gtid, 100, 200, 59, "ncclCommInitRank", binaryData(kStaticSchema + kSidCommInitRank, p), rank);
            put<uint64_t>(p, 0, pairComm(rank)), put<int32_t>(p, 8, 2), put<int32_t>(p, 12, rank % 2);
            nvtx(db, gtid, 300, 400, 59, "ncclCommInitRank", binaryData(kStaticSchema + kSidCommInitRank, p), rank);
        }
        int64_t corr = 1;
        for (const Step &s : m_steps) {
            const int64_t arrive = s.allreduce[size_t(rank)];
            db.row("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, "
                   "globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, "
                   "blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) "
                   "VALUES (?, ?, 0, 1, 7, ?, ?, ?, ?, 32, 80, 1, 1, 256, 1, 1, 0, 0, 0, 0, ?)",
                   arrive - kComputeNs, arrive - 10'000, corr, gpid, db.string("void gemm_kernel<float>(float*)"),
                   db.string("gemm_kernel"), corr);
            ++corr;
            std::vector<char> p;
            put<uint64_t>(p, 0, kWorldComm), put<uint64_t>(p, 8, kAllreduceBytes), put<int32_t>(p, 16, 0);
            collective(db, rank, corr++, arrive, *std::max_element(s.allreduce.begin(), s.allreduce.end()),
                       kAllreduceTransferNs, "ncclAllReduce",
                       "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 13,
                       payloads ? binaryData(kStaticSchema + kSidAllReduce, p) : std::vector<char>{});
            p.clear();
            put<uint64_t>(p, 0, pairComm(rank)), put<uint64_t>(p, 8, kAllgatherBytes);
            const int64_t gather = s.allgather[size_t(rank)];
            collective(db, rank, corr++, gather, std::max(gather, s.allgather[size_t(rank ^ 1)]), kAllgatherTransferNs,
                       "ncclAllGather", "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 14,
                       payloads ? binaryData(kStaticSchema + kSidAllGather, p) : std::vector<char>{});
        }
        db.exec("COMMIT");
    }

    void writeSchemas(Db &db)
    {
        for (const auto &[sid, entries] : ncclSchemas()) {
            db.row("INSERT INTO NVTX_PAYLOAD_SCHEMAS VALUES (?, ?, NULL, 1, NULL, ?, NULL, NULL)", kNcclDomain,
                   kStaticSchema + sid, int64_t(entries.size()));
            for (size_t i = 0; i < entries.size(); ++i) {
                const SchemaEntry &e = entries[i];
                const std::string offset = e.offset < 0 ? "NULL" : std::to_string(e.offset);
                db.row("INSERT INTO NVTX_PAYLOAD_SCHEMA_ENTRIES VALUES (?, ?, ?, NULL, ?, ?, NULL, NULL, " + offset +
                           ")",
                       kNcclDomain, kStaticSchema + sid, int64_t(i), e.type, std::string(e.name));
            }
        }
    }

    // A push/pop range (59) or a domain's name (75) on the rank's thread, in NCCL's domain; the
    // payload as a BLOB on even ranks, as hex text on odd ones.
    void nvtx(Db &db, int64_t gtid, int64_t start, int64_t end, int64_t type, const std::string &text,
              const std::vector<char> &payload, int rank = 0)
    {
        const std::string columns =
            "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId, eventId";
        if (payload.empty())
            db.row(columns + ") VALUES (?, ?, ?, ?, ?, ?, ?)", start, end, type, text, gtid, kNcclDomain, ++m_event);
        else if (rank % 2 == 0)
            db.row(columns + ", binaryData) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", start, end, type, text, gtid, kNcclDomain,
                   ++m_event, payload);
        else
            db.row(columns + ", binaryData) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", start, end, type, text, gtid, kNcclDomain,
                   ++m_event, hexOf(payload));
    }

    // The call's range and launch on the CPU, its kernel on the GPU from the rank's arrival to the
    // last arrival plus the transfer.
    void collective(Db &db, int rank, int64_t corr, int64_t arrive, int64_t lastArrival, int64_t transfer,
                    const std::string &call, const std::string &kernel, int64_t stream,
                    const std::vector<char> &payload)
    {
        const int64_t pid = 1000 + rank, gtid = (pid << 24) | pid;
        nvtx(db, gtid, arrive - 60'000, arrive - 20'000, 59, call, payload, rank); // NCCL < 2.16: no payload
        db.row("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 1, ?, ?, ?, 0, NULL)", arrive - 50'000,
               arrive - 40'000, gtid, corr, db.string("cudaLaunchKernel_v7000"));
        db.row("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, "
               "globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, "
               "staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) "
               "VALUES (?, ?, 0, 1, ?, ?, ?, ?, ?, 96, 16, 1, 1, 512, 1, 1, 0, 0, 0, 0, ?)",
               arrive, lastArrival + transfer, stream, corr, pid << 24, db.string(kernel),
               db.string(kernel.substr(0, kernel.find('('))), corr);
    }

    std::vector<Step> m_steps;
    int64_t m_event = 0;
};

QJsonObject collectivesJson(const QString &dir)
{
    const ps::test::CliRun r = ps::test::runCli({"trace", "collectives", "--no-cache", "--format", "json", dir});
    if (r.exitCode != 0)
        qWarning("exit %d: %s", r.exitCode, qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

} // namespace

class TestCollectiveNsys : public QObject
{
    Q_OBJECT

private slots:
    void ncclPayloadsMatchByCommunicator()
    {
        QTemporaryDir dir;
        NsysLoopWriter w;
        w.write(dir.path().toStdString(), true);
        const QJsonObject j = collectivesJson(dir.path());
        const QJsonArray all = j["collectives"].toArray();
        QCOMPARE(all.size(), kSteps * 3); // per step: the world allreduce, an allgather per pair
        int allreduces = 0, allgathers = 0;
        for (const QJsonValue &v : all) {
            const QJsonObject o = v.toObject();
            QVERIFY2(o["complete"].toBool(), qPrintable(o["problem"].toString()));
            QCOMPARE(o["match"].toString(), QStringLiteral("nvtx-payload"));
            const int step = o["index"].toInt();
            const QJsonArray members = o["members"].toArray();
            if (o["op"].toString() == QLatin1String("allreduce")) {
                ++allreduces;
                const Expected &e = w.allreduces[size_t(step)];
                QCOMPARE(o["group"].toString(), QStringLiteral("0xc0ffee0000000001"));
                QCOMPARE(o["ranks"].toInt(), kRanks); // the communicator's size, from ncclCommInitRank
                QCOMPARE(o["last_rank"].toInt(), e.lastRank);
                if (step >= 2 && step <= 4)
                    QCOMPARE(e.lastRank, kLate);
                QCOMPARE(o["transfer_ns"].toInteger(), e.transferNs);
                QCOMPARE(o["bytes"].toInteger(), qint64(kAllreduceBytes));
                const double busbw = double(kAllreduceBytes) / double(e.transferNs) * 2.0 * (kRanks - 1) / kRanks;
                QVERIFY(std::abs(o["busbw_gbps"].toDouble() - busbw) <= 0.01 * busbw);
                QCOMPARE(members.size(), kRanks);
                for (const QJsonValue &m : members)
                    QCOMPARE(m.toObject()["wait_ns"].toInteger(), e.waitNs[size_t(m.toObject()["rank"].toInt())]);
            } else {
                ++allgathers;
                QCOMPARE(o["op"].toString(), QStringLiteral("allgather"));
                QCOMPARE(members.size(), 2);
                const int first = members[0].toObject()["rank"].toInt();
                QCOMPARE(members[1].toObject()["rank"].toInt(), first + 1);
                QCOMPARE(o["bytes"].toInteger(), qint64(kAllgatherBytes * 2)); // S = the message size x the ranks
                for (const QJsonValue &m : members)
                    QCOMPARE(m.toObject()["wait_ns"].toInteger(),
                             w.allgathers[size_t(step)].waitNs[size_t(m.toObject()["rank"].toInt())]);
            }
        }
        QCOMPARE(allreduces, kSteps);
        QCOMPARE(allgathers, kSteps * 2);
        for (const QJsonValue &g : j["groups"].toArray())
            QCOMPARE(g.toObject()["match"].toString(), QStringLiteral("nvtx-payload"));
    }

    void withoutPayloadsKernelsMatchByStreamOrder()
    {
        QTemporaryDir dir;
        NsysLoopWriter w;
        w.write(dir.path().toStdString(), false);
        const QJsonObject j = collectivesJson(dir.path());
        const QJsonArray all = j["collectives"].toArray();
        QCOMPARE(all.size(), kSteps * 2); // one instance per stream and step: pairs are not told apart
        for (const QJsonValue &v : all) {
            const QJsonObject o = v.toObject();
            QCOMPARE(o["match"].toString(), QStringLiteral("stream-order"));
            QVERIFY(o["group"].toString().startsWith(QLatin1String("nccl stream #")));
            if (o["op"].toString() == QLatin1String("allreduce")) {
                QVERIFY(o["complete"].toBool());
                QCOMPARE(o["last_rank"].toInt(), w.allreduces[size_t(o["index"].toInt())].lastRank);
                QVERIFY(o["bytes"].isNull()); // a kernel's name says no size
            }
        }
    }

    void textSaysHowEachGroupMatched()
    {
        QTemporaryDir dir;
        NsysLoopWriter().write(dir.path().toStdString(), true);
        const ps::test::CliRun r = ps::test::runCli({"trace", "collectives", "--no-cache", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QRegularExpression("0xc0ffee0000000001\\s+nvtx-payload\\s+6\\s+6")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("0xbeef000000000001\\s+nvtx-payload\\s+6\\s+6")), qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TestCollectiveNsys)
#include "tst_collectivensys.moc"
