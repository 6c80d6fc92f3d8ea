// The demo run generator: its exports must look like real nsys exports (schema a subset of the
// real files in testdata), hold sane data (id packing, correlation, NVTX nesting, a straggler),
// be deterministic for a seed, and come with an RLinf config that composes.

#include "core/config/yamlloader.h"
#include "core/demo/demorun.h"
#include "core/trace/nsys/nvtxeventtype.h"
#include "tests/support/sqlref.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace ps::core::demo;

namespace nsys = ps::core::trace::nsys;

namespace {

const std::string kRealExports = PS_TESTDATA_DIR "/traces/nsys";

std::vector<std::string> realExports()
{
    std::vector<std::string> files;
    for (const auto &entry : std::filesystem::directory_iterator(kRealExports))
        if (entry.path().extension() == ".sqlite")
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

int64_t pidFromFileName(const std::string &path)
{
    const std::string stem = std::filesystem::path(path).stem().string();
    return std::stoll(stem.substr(stem.rfind('_') + 1));
}

// All rows of every table, in insertion order, as one text per table.
std::map<std::string, std::string> content(const std::string &path)
{
    ps::test::SqlRef db(path);
    std::map<std::string, std::string> out;
    for (const std::string &table : db.tables()) {
        std::string all;
        for (const std::string &row : db.textRows("SELECT * FROM " + table + " ORDER BY rowid"))
            all += row + "\n";
        out[table] = all;
    }
    return out;
}

std::string readText(const std::string &path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::set<std::string> kRlinfLabels = {"actor/sync_model_to_rollout",
                                            "actor/recv_traj",
                                            "actor/compute_adv",
                                            "run_training",
                                            "training_step",
                                            "forward_actor",
                                            "forward_critic"};

} // namespace

class TestDemoRun : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_options.outDir = m_dir.filePath("run").toStdString();
        m_options.ranks = 4;
        m_options.steps = 3;
        m_options.seed = 7;
        std::string error;
        QVERIFY2(writeDemoRun(m_options, m_result, error), error.c_str());
        QCOMPARE(int(m_result.reports.size()), 4);
    }

    void layoutAndNames()
    {
        QCOMPARE(m_result.configPath, m_result.configDir + "/maniskill_ppo_demo.yaml");
        QCOMPARE(m_result.presetPath, m_result.configDir + "/profile/default.yaml");
        QVERIFY(std::filesystem::is_regular_file(m_result.configPath));
        std::set<int64_t> pids;
        for (const DemoReport &r : m_result.reports) {
            const std::string name = std::filesystem::path(r.path).filename().string();
            QCOMPARE(name,
                     "rlinf_profile_ActorGroup_" + std::to_string(r.rank) + "_" + std::to_string(r.pid) + ".sqlite");
            QCOMPARE(std::filesystem::path(r.path).parent_path().string(), m_result.reportDir);
            QVERIFY(pids.insert(r.pid).second);
            QVERIFY(!std::filesystem::exists(r.path + ".part"));
        }
        QVERIFY(m_result.stragglerRank >= 0 && m_result.stragglerRank < 4);
        QCOMPARE(m_result.profiledSteps, (std::vector<int>{2, 3, 4}));
    }

    void schemaIsSubsetOfARealExport_data()
    {
        QTest::addColumn<QString>("table");
        ps::test::SqlRef db(m_result.reports.front().path);
        for (const std::string &t : db.tables())
            QTest::newRow(t.c_str()) << QString::fromStdString(t);
    }

    // Every table the demo writes exists in some real export with all of the demo's columns.
    void schemaIsSubsetOfARealExport()
    {
        QFETCH(QString, table);
        const std::string t = table.toStdString();
        const std::vector<std::string> demoColumns = ps::test::SqlRef(m_result.reports.front().path).columns(t);
        QVERIFY(!demoColumns.empty());
        std::string candidates;
        bool found = false;
        for (const std::string &file : realExports()) {
            ps::test::SqlRef real(file);
            QVERIFY2(real.ok(), file.c_str());
            const std::vector<std::string> realColumns = real.columns(t);
            if (realColumns.empty())
                continue;
            const std::set<std::string> have(realColumns.begin(), realColumns.end());
            const bool subset = std::all_of(demoColumns.begin(), demoColumns.end(),
                                            [&](const std::string &c) { return have.count(c) > 0; });
            found = found || subset;
            candidates += " " + std::filesystem::path(file).filename().string();
        }
        QVERIFY2(found, ("no real export has all columns of " + t + "; it exists in:" + candidates).c_str());
    }

    void expectedTablesArePresent()
    {
        ps::test::SqlRef db(m_result.reports.front().path);
        const std::vector<std::string> tables = db.tables();
        for (const char *t :
             {"StringIds", "ThreadNames", "ProcessStreams", "TARGET_INFO_SESSION_START_TIME", "META_DATA_EXPORT",
              "NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
              "CUPTI_ACTIVITY_KIND_RUNTIME"})
            QVERIFY2(std::find(tables.begin(), tables.end(), t) != tables.end(), t);
        QCOMPARE(db.textRows("SELECT value FROM META_DATA_EXPORT WHERE name='EXPORT_SCHEMA_VERSION'"),
                 std::vector<std::string>{"3.24.7"});
        QCOMPARE(db.integer("SELECT count(*) FROM TARGET_INFO_SESSION_START_TIME"), int64_t(1));
        for (const char *t : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
                              "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS"})
            QVERIFY2(db.integer(std::string("SELECT count(*) FROM ") + t) > 0, t);
        // Several streams, both copy directions.
        QVERIFY(db.integer("SELECT count(DISTINCT streamId) FROM CUPTI_ACTIVITY_KIND_KERNEL") >= 2);
        QCOMPARE(db.integer("SELECT count(DISTINCT copyKind) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind IN (1,2)"),
                 int64_t(2));
    }

    void rowCountsMatchResult()
    {
        int64_t total = 0;
        for (const DemoReport &r : m_result.reports) {
            ps::test::SqlRef db(r.path);
            int64_t rows = 0;
            for (const char *t : {"NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                  "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME",
                                  "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "CUDA_GPU_MEMORY_USAGE_EVENTS"})
                rows += db.integer(std::string("SELECT count(*) FROM ") + t);
            QCOMPARE(rows, r.rowCount);
            // Activations allocated and freed once per micro-batch: every allocation is freed.
            QVERIFY(db.integer("SELECT count(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS") > 0);
            QCOMPARE(db.integer("SELECT sum(CASE memoryOperationType WHEN 0 THEN bytes ELSE -bytes END) FROM "
                                "CUDA_GPU_MEMORY_USAGE_EVENTS"),
                     int64_t(0));
            total += rows;
        }
        QCOMPARE(total, m_result.totalRows);
    }

    // globalTid = (vm << 48) | (pid << 24) | tid, globalPid the same with tid 0 (trace-formats 1.2).
    void globalIdPacking()
    {
        for (const DemoReport &r : m_result.reports) {
            ps::test::SqlRef db(r.path);
            QCOMPARE(pidFromFileName(r.path), r.pid);
            const int64_t gpid = (int64_t(1) << 48) | (r.pid << 24);
            QCOMPARE(db.textRows("SELECT globalPid, pid FROM PROCESSES"),
                     std::vector<std::string>{std::to_string(gpid) + "|" + std::to_string(r.pid)});
            for (const char *t :
                 {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
                  "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "ProcessStreams"})
                QCOMPARE(db.textRows(std::string("SELECT DISTINCT globalPid FROM ") + t),
                         std::vector<std::string>{std::to_string(gpid)});
            for (const char *t : {"CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "ThreadNames"}) {
                for (const auto &row : db.ints(std::string("SELECT DISTINCT globalTid FROM ") + t)) {
                    const int64_t gtid = row[0];
                    QCOMPARE(gtid >> 48, int64_t(1));
                    QCOMPARE((gtid >> 24) & 0xFFFFFF, r.pid);
                    QVERIFY(gtid & 0xFFFFFF);
                }
            }
            // The main thread's tid is the pid, as on Linux.
            QVERIFY(db.integer("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE globalTid = " +
                               std::to_string(gpid | r.pid)) > 0);
            // Every thread that calls CUDA or pushes NVTX has a name.
            QCOMPARE(db.integer("SELECT count(*) FROM (SELECT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME UNION "
                                "SELECT globalTid FROM NVTX_EVENTS) WHERE globalTid NOT IN "
                                "(SELECT globalTid FROM ThreadNames)"),
                     int64_t(0));
        }
    }

    // Every CUDA API call started exactly one piece of GPU work in its own process, no later
    // than the call began, and every piece of GPU work has its call.
    void runtimeCallsCorrelate()
    {
        for (const DemoReport &r : m_result.reports) {
            ps::test::SqlRef db(r.path);
            const std::string gpu = "(SELECT correlationId, globalPid, start FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
                                    "SELECT correlationId, globalPid, start FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL "
                                    "SELECT correlationId, globalPid, start FROM CUPTI_ACTIVITY_KIND_MEMSET UNION ALL "
                                    "SELECT correlationId, globalPid, start FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION)";
            const int64_t calls = db.integer("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME");
            QVERIFY(calls > 0);
            QCOMPARE(db.integer("SELECT count(*) FROM " + gpu), calls);
            QCOMPARE(db.integer("SELECT count(DISTINCT correlationId) FROM CUPTI_ACTIVITY_KIND_RUNTIME"), calls);
            QCOMPARE(db.integer("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN " + gpu +
                                " g ON g.correlationId = r.correlationId AND g.globalPid = (r.globalTid & ~0xFFFFFF) "
                                "AND g.start >= r.start"),
                     calls);
            QCOMPARE(db.integer("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass NOT IN (0,1) "
                                "OR end < start"),
                     int64_t(0));
            // Kernel names resolve through StringIds; launches are named like real ones.
            QCOMPARE(db.integer("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE NOT EXISTS (SELECT 1 "
                                "FROM StringIds s WHERE s.id = k.shortName) OR NOT EXISTS (SELECT 1 FROM StringIds "
                                "s WHERE s.id = k.demangledName)"),
                     int64_t(0));
            QVERIFY(db.integer("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = "
                               "k.shortName WHERE s.value LIKE 'ncclDevKernel_%'") > 0);
            QVERIFY(db.integer("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = "
                               "r.nameId WHERE s.value = 'cudaLaunchKernel_v7000'") > 0);
        }
    }

    // A CUDA stream runs one thing at a time: kernels, copies and fills on one stream never
    // overlap. NCCL kernels have their own stream.
    void streamsAreSerial()
    {
        for (const DemoReport &r : m_result.reports) {
            ps::test::SqlRef db(r.path);
            const std::string gpu = "(SELECT streamId, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
                                    "SELECT streamId, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL "
                                    "SELECT streamId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET)";
            QCOMPARE(db.integer("SELECT count(*) FROM (SELECT start, end, LAG(end) OVER (PARTITION BY streamId "
                                "ORDER BY start) AS previousEnd FROM " +
                                gpu + ") WHERE start < previousEnd OR end <= start"),
                     int64_t(0));
            QCOMPARE(db.textRows("SELECT DISTINCT k.streamId FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                                 "s.id = k.shortName WHERE s.value LIKE 'nccl%'"),
                     std::vector<std::string>{"13"});
        }
    }

    // Push/pop ranges (eventType 59) nest per thread: a range that starts inside another ends
    // inside it too.
    void nvtxRangesNestPerThread()
    {
        for (const DemoReport &r : m_result.reports) {
            ps::test::SqlRef db(r.path);
            QCOMPARE(db.integer("SELECT count(*) FROM NVTX_EVENTS WHERE eventType NOT IN (" +
                                nsys::sqlList({nsys::NvtxEventType::PushPopRange, nsys::NvtxEventType::DomainCreate}) +
                                ")"),
                     int64_t(0));
            QCOMPARE(db.integer("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = " +
                                nsys::sqlList({nsys::NvtxEventType::PushPopRange}) +
                                " AND (end IS NULL OR end < "
                                "start)"),
                     int64_t(0));
            const auto rows = db.ints("SELECT globalTid, start, end FROM NVTX_EVENTS WHERE eventType = " +
                                      nsys::sqlList({nsys::NvtxEventType::PushPopRange}) +
                                      " ORDER "
                                      "BY globalTid, start, end DESC");
            QVERIFY(rows.size() > 10);
            std::vector<int64_t> openEnds;
            int64_t thread = -1;
            int maxDepth = 0;
            for (const auto &row : rows) {
                if (row[0] != thread) {
                    thread = row[0];
                    openEnds.clear();
                }
                while (!openEnds.empty() && openEnds.back() <= row[1])
                    openEnds.pop_back();
                if (!openEnds.empty())
                    QVERIFY2(row[2] <= openEnds.back(), "a range overlaps its parent's end");
                openEnds.push_back(row[2]);
                maxDepth = std::max(maxDepth, int(openEnds.size()));
            }
            QVERIFY(maxDepth >= 3); // run_training > training_step > forward_actor > ncclAllGather
            // Labels: RLinf's Worker.timer labels as text in the default domain, NCCL's as
            // registered strings in the domain its eventType-75 row names.
            for (const std::string &label :
                 db.textRows("SELECT DISTINCT text FROM NVTX_EVENTS WHERE eventType = " +
                             nsys::sqlList({nsys::NvtxEventType::PushPopRange}) + " AND textId IS NULL"))
                QVERIFY2(kRlinfLabels.count(label), label.c_str());
            QCOMPARE(db.textRows("SELECT DISTINCT d.text FROM NVTX_EVENTS e JOIN NVTX_EVENTS d ON d.eventType = " +
                                 nsys::sqlList({nsys::NvtxEventType::DomainCreate}) +
                                 " "
                                 "AND d.domainId = e.domainId WHERE e.eventType = " +
                                 nsys::sqlList({nsys::NvtxEventType::PushPopRange}) + " AND e.domainId <> 0"),
                     std::vector<std::string>{"NCCL"});
            QVERIFY(db.integer("SELECT count(*) FROM NVTX_EVENTS e JOIN StringIds s ON s.id = e.textId WHERE "
                               "s.value = 'ncclAllGather'") > 0);
        }
    }

    // Ranges with collectives in them last about as long on every rank (the others wait for the
    // straggler inside their NCCL kernels); ranges without are the straggler's own slow work.
    void stragglerMakesOthersWaitOnSynchronizedRanges_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<bool>("synchronized");
        for (const char *l : {"actor/sync_model_to_rollout", "run_training", "training_step"})
            QTest::newRow(l) << QString::fromLatin1(l) << true;
        for (const char *l : {"actor/recv_traj", "actor/compute_adv"})
            QTest::newRow(l) << QString::fromLatin1(l) << false;
    }

    void stragglerMakesOthersWaitOnSynchronizedRanges()
    {
        QFETCH(QString, label);
        QFETCH(bool, synchronized);
        std::vector<std::vector<int64_t>> durations; // per rank, per instance
        for (const DemoReport &r : m_result.reports) {
            ps::test::SqlRef db(r.path);
            std::vector<int64_t> d;
            for (const auto &row : db.ints("SELECT end - start FROM NVTX_EVENTS WHERE text = '" + label.toStdString() +
                                           "' ORDER BY start"))
                d.push_back(row[0]);
            durations.push_back(d);
        }
        const size_t instances = durations.front().size();
        QVERIFY(instances >= size_t(m_options.steps));
        for (size_t i = 0; i < instances; ++i) {
            int slowest = 0, fastest = 0;
            for (int rank = 0; rank < int(durations.size()); ++rank) {
                QCOMPARE(durations[size_t(rank)].size(), instances);
                if (durations[size_t(rank)][i] > durations[size_t(slowest)][i])
                    slowest = rank;
                if (durations[size_t(rank)][i] < durations[size_t(fastest)][i])
                    fastest = rank;
            }
            const double spread = double(durations[size_t(slowest)][i] - durations[size_t(fastest)][i]) /
                                  double(durations[size_t(slowest)][i]);
            if (synchronized)
                QVERIFY2(spread < 0.05, qPrintable(QString::number(spread)));
            else
                QCOMPARE(slowest, m_result.stragglerRank);
        }
    }

    // NCCL releases a collective's members together: the k-th NCCL kernel ends at the same UTC
    // instant on every rank (the four ranks share a host, so one clock), and the straggler
    // starts it last: the others wait inside their kernels.
    void ncclKernelsEndTogetherAndTheStragglerArrivesLast()
    {
        std::vector<std::vector<std::vector<int64_t>>> kernels; // per rank: UTC start, end
        for (const DemoReport &r : m_result.reports) {
            ps::test::SqlRef db(r.path);
            std::vector<std::vector<int64_t>> k;
            for (auto row : db.ints("SELECT k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                                    "s.id = k.shortName WHERE s.value LIKE 'ncclDevKernel%' ORDER BY k.start")) {
                row[0] += r.utcEpochNs;
                row[1] += r.utcEpochNs;
                k.push_back(row);
            }
            kernels.push_back(k);
        }
        const size_t n = kernels.front().size();
        QVERIFY(n > 10);
        for (size_t i = 0; i < n; ++i) {
            int64_t lastArrival = 0;
            for (const auto &k : kernels) {
                QCOMPARE(k.size(), n);
                QCOMPARE(k[i][1], kernels.front()[i][1]);
                lastArrival = std::max(lastArrival, k[i][0]);
            }
            QCOMPARE(kernels[size_t(m_result.stragglerRank)][i][0], lastArrival);
            for (size_t r = 0; r < kernels.size(); ++r)
                if (int(r) != m_result.stragglerRank)
                    QVERIFY(kernels[r][i][0] < lastArrival);
        }
    }

    // Each report has its own session start; on the UTC axis the ranks start each step
    // together, up to the hosts' clock error.
    void sessionStartsSkewButAlignOnUtc()
    {
        std::set<int64_t> starts;
        std::vector<int64_t> stepStarts;
        for (const DemoReport &r : m_result.reports) {
            ps::test::SqlRef db(r.path);
            const auto row = db.ints("SELECT utcEpochNs, systemClockNs FROM TARGET_INFO_SESSION_START_TIME");
            QCOMPARE(row.size(), size_t(1));
            QCOMPARE(row[0][0], r.utcEpochNs);
            QVERIFY(row[0][1] > 0);
            starts.insert(r.utcEpochNs);
            QCOMPARE(db.textRows("SELECT utcTime FROM TARGET_INFO_SESSION_START_TIME").front().size(), size_t(19));
            const int64_t first = db.integer("SELECT min(start) FROM NVTX_EVENTS WHERE text = "
                                             "'actor/sync_model_to_rollout'");
            QVERIFY(first > 0);
            stepStarts.push_back(r.utcEpochNs + first);
        }
        QCOMPARE(starts.size(), m_result.reports.size());
        QVERIFY(*starts.rbegin() - *starts.begin() > 1000000); // > 1 ms apart
        const auto [lo, hi] = std::minmax_element(stepStarts.begin(), stepStarts.end());
        QVERIFY2(*hi - *lo < 10000000, std::to_string(*hi - *lo).c_str()); // within 10 ms
    }

    void sameSeedSameRows()
    {
        QTemporaryDir other;
        DemoOptions options = m_options;
        options.outDir = other.filePath("again").toStdString();
        DemoResult again;
        std::string error;
        QVERIFY2(writeDemoRun(options, again, error), error.c_str());
        QCOMPARE(again.stragglerRank, m_result.stragglerRank);
        for (size_t i = 0; i < again.reports.size(); ++i) {
            QCOMPARE(std::filesystem::path(again.reports[i].path).filename(),
                     std::filesystem::path(m_result.reports[i].path).filename());
            const auto a = content(m_result.reports[i].path);
            const auto b = content(again.reports[i].path);
            QCOMPARE(a.size(), b.size());
            for (const auto &[table, rows] : a)
                QVERIFY2(rows == b.at(table), table.c_str());
        }
    }

    void differentSeedDifferentRows()
    {
        QTemporaryDir other;
        DemoOptions options = m_options;
        options.outDir = other.filePath("seed8").toStdString();
        options.seed = 8;
        DemoResult changed;
        std::string error;
        QVERIFY2(writeDemoRun(options, changed, error), error.c_str());
        const auto a = content(m_result.reports[0].path);
        const auto b = content(changed.reports[0].path);
        for (const char *t : {"CUPTI_ACTIVITY_KIND_KERNEL", "NVTX_EVENTS", "TARGET_INFO_SESSION_START_TIME"})
            QVERIFY2(a.at(t) != b.at(t), t);
        QVERIFY(changed.reports[0].pid != m_result.reports[0].pid);
    }

    void rerunReplacesEarlierReports()
    {
        QTemporaryDir dir;
        DemoOptions options;
        options.outDir = dir.path().toStdString();
        options.ranks = 3;
        DemoResult first, second;
        std::string error;
        QVERIFY2(writeDemoRun(options, first, error), error.c_str());
        options.ranks = 2;
        options.seed = 99;
        QVERIFY2(writeDemoRun(options, second, error), error.c_str());
        std::set<std::string> files;
        for (const auto &entry : std::filesystem::directory_iterator(second.reportDir))
            files.insert(entry.path().string());
        QCOMPARE(files, (std::set<std::string>{second.reports[0].path, second.reports[1].path}));
    }

    void eventsPerReportScales_data()
    {
        QTest::addColumn<int>("steps");
        QTest::addColumn<qlonglong>("events");
        QTest::newRow("1 step, 20k") << 1 << 20000LL;
        QTest::newRow("2 steps, 60k") << 2 << 60000LL;
    }

    void eventsPerReportScales()
    {
        QFETCH(int, steps);
        QFETCH(qlonglong, events);
        QTemporaryDir dir;
        DemoOptions options;
        options.outDir = dir.path().toStdString();
        options.ranks = 2;
        options.steps = steps;
        options.eventsPerReport = events;
        DemoResult result;
        std::string error;
        QVERIFY2(writeDemoRun(options, result, error), error.c_str());
        for (const DemoReport &r : result.reports) {
            QVERIFY2(std::abs(r.rowCount - events) <= events / 20, std::to_string(r.rowCount).c_str());
            ps::test::SqlRef db(r.path);
            QCOMPARE(db.integer("SELECT count(*) FROM NVTX_EVENTS WHERE text = 'run_training'"), int64_t(steps));
        }
    }

    // The config composes like RLinf's: defaults pull the preset into cluster.profiling and the
    // primary's cluster.profiling narrows it to the ActorGroup and the profiled steps.
    void configIsRlinfStyle()
    {
        QCOMPARE(readText(m_result.presetPath),
                 readText(PS_TESTDATA_DIR "/configs/rlinf-with-profile/examples/embodiment/config/profile/"
                                          "default.yaml"));
        using ps::core::config::Node;
        // A missing key fails the test here instead of crashing on a null pointer.
        auto at = [](const Node &from, std::initializer_list<const char *> path) -> const Node & {
            const Node *n = &from;
            for (const char *key : path) {
                n = n->find(key);
                if (!n)
                    throw std::runtime_error(std::string("no key ") + key);
            }
            return *n;
        };
        const Node primary = ps::core::config::loadYamlFile(m_result.configPath).root;
        QCOMPARE(at(primary, {"defaults"}).items().at(0).asString(), std::string("profile/default@cluster.profiling"));
        const Node &profiling = at(primary, {"cluster", "profiling"});
        QCOMPARE(at(profiling, {"worker_groups"}).items().at(0).asString(), std::string("ActorGroup"));
        std::vector<int> steps;
        for (const Node &step : at(profiling, {"steps"}).items())
            steps.push_back(static_cast<int>(step.asInt()));
        QCOMPARE(steps, m_result.profiledSteps);
        QCOMPARE(at(profiling, {"output_dir"}).asString(), m_result.reportDir);
        QCOMPARE(at(profiling, {"options", "capture-range-end"}).asString(), std::string("none"));
        QCOMPARE(at(primary, {"actor", "group_name"}).asString(), std::string("ActorGroup"));
        const Node preset = ps::core::config::loadYamlFile(m_result.presetPath).root;
        QCOMPARE(at(preset, {"backend"}).asString(), std::string("nsight"));
    }

    void invalidOptions_data()
    {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("steps");
        QTest::addColumn<qlonglong>("events");
        QTest::addColumn<QString>("message");
        QTest::newRow("no ranks") << 0 << 3 << 0LL << "ranks must be between 1 and 4096";
        QTest::newRow("too many ranks") << 4097 << 3 << 0LL << "ranks must be between 1 and 4096";
        QTest::newRow("no steps") << 4 << 0 << 0LL << "steps must be between 1 and 1000";
        QTest::newRow("negative events") << 4 << 3 << -1LL << "events per report must be between 0";
    }

    void invalidOptions()
    {
        QFETCH(int, ranks);
        QFETCH(int, steps);
        QFETCH(qlonglong, events);
        QFETCH(QString, message);
        QTemporaryDir dir;
        DemoOptions options;
        options.outDir = dir.path().toStdString();
        options.ranks = ranks;
        options.steps = steps;
        options.eventsPerReport = events;
        DemoResult result;
        std::string error;
        QVERIFY(!writeDemoRun(options, result, error));
        QVERIFY2(QString::fromStdString(error).startsWith(message), error.c_str());
        QVERIFY(QDir(dir.path()).isEmpty());
    }

    void unwritableOutDirFails()
    {
        QTemporaryDir dir;
        const std::string blocker = dir.filePath("file").toStdString();
        std::ofstream(blocker) << "x";
        DemoOptions options;
        options.outDir = blocker + "/run";
        DemoResult result;
        std::string error;
        QVERIFY(!writeDemoRun(options, result, error));
        QVERIFY2(error.rfind("cannot create ", 0) == 0, error.c_str());
    }

private:
    QTemporaryDir m_dir;
    DemoOptions m_options;
    DemoResult m_result;
};

QTEST_GUILESS_MAIN(TestDemoRun)
#include "tst_demorun.moc"
