// The RL phase table (core/analysis/phases.h) and `trace phases`: the label mapping (verl's and
// RLinf's own labels, user rules, mapping-file errors), and on a demo run the phases per step, the
// wall times against SQL over the same exports, and the straggler the demo planted.
#include "core/analysis/phases.h"
#include "core/analysis/phasesummary.h"
#include "core/demo/demorun.h"
#include "core/trace/digest.h"
#include "core/trace/traceloader.h"
#include "tests/support/clirun.h"
#include "tests/support/sqlref.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::analysis;
namespace tr = ps::core::trace;

namespace {

// The demo's four driver calls per step (RLinf's labels), in the order they run.
const std::vector<std::pair<std::string, std::string>> kDemoPhases = {{"actor/sync_model_to_rollout", "weight_sync"},
                                                                      {"actor/recv_traj", "recv_trajectories"},
                                                                      {"actor/compute_adv", "adv"},
                                                                      {"run_training", "update_actor"}};

// Durations of the ranges labelled `label` in an nsys export, in time order (SQL, not the reader).
std::vector<int64_t> sqlDurations(const std::string &path, const std::string &label)
{
    ps::test::SqlRef db(path);
    std::vector<int64_t> out;
    for (const QVariantList &row :
         db.rows("SELECT n.end - n.start FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
                 "WHERE coalesce(n.text, s.value) = '" +
                 label + "' AND n.end IS NOT NULL ORDER BY n.start"))
        out.push_back(row.at(0).toLongLong());
    return out;
}

} // namespace

class TestPhases : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    ps::core::demo::DemoResult m_demo;
    std::vector<tr::ReportPtr> m_reports;

private slots:
    void initTestCase()
    {
        ps::core::demo::DemoOptions o;
        o.outDir = m_dir.filePath("run").toStdString();
        o.ranks = 6;
        o.steps = 3;
        o.seed = 7;
        std::string error;
        QVERIFY2(ps::core::demo::writeDemoRun(o, m_demo, error), error.c_str());
        QVERIFY(m_demo.stragglerRank >= 0);
        tr::LoadOptions lo;
        lo.useCache = false;
        std::vector<std::string> paths;
        for (const auto &r : m_demo.reports)
            paths.push_back(r.path);
        tr::LoadResult loaded = tr::loadReports(paths, lo);
        QCOMPARE(loaded.reports.size(), size_t(o.ranks));
        m_reports = loaded.reports;
    }

    void defaultLabels_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("phase");
        // verl: controller marked_timer names, V1 worker stage labels, legacy method names.
        QTest::newRow("verl gen") << "gen"
                                  << "rollout";
        QTest::newRow("verl generate_sequences") << "generate_sequences"
                                                 << "rollout";
        QTest::newRow("verl old_log_prob") << "old_log_prob"
                                           << "old_log_prob";
        QTest::newRow("verl V1 actor_compute_log_prob") << "actor_compute_log_prob"
                                                        << "old_log_prob";
        QTest::newRow("verl V1 ref_compute_log_prob") << "ref_compute_log_prob"
                                                      << "ref";
        QTest::newRow("verl compute_values") << "compute_values"
                                             << "values";
        QTest::newRow("verl update_critic") << "update_critic"
                                            << "update_critic";
        QTest::newRow("verl V1 actor_update") << "actor_update"
                                              << "update_actor";
        QTest::newRow("verl update_weights") << "update_weights"
                                             << "weight_sync";
        QTest::newRow("verl testing") << "testing"
                                      << "validation";
        // RLinf Worker.timer labels (profiling-config.md A9).
        QTest::newRow("RLinf rollout/generate") << "rollout/generate"
                                                << "rollout";
        QTest::newRow("RLinf run_training") << "run_training"
                                            << "update_actor";
        QTest::newRow("RLinf env_interact_step") << "env_interact_step"
                                                 << "env";
        QTest::newRow("RLinf compute_rewards") << "compute_rewards"
                                               << "reward";
        // An NVTX domain drawn in front of the label.
        QTest::newRow("domain prefix") << "verl:update_actor"
                                       << "update_actor";
        QTest::newRow("unknown") << "forward_actor"
                                 << "";
        QTest::newRow("inner V1 label is not a phase") << "train_batch"
                                                       << "";
    }
    void defaultLabels()
    {
        QFETCH(QString, label);
        QFETCH(QString, phase);
        const auto got = PhaseMapping::defaults().phaseOf(label.toStdString());
        QCOMPARE(QString::fromStdString(got.value_or("")), phase);
    }

    void userRulesComeFirst()
    {
        std::string error;
        const auto user = PhaseMapping::parse("# mine\nrun_* = train\n\n my_gen=rollout # inline\n", "m.txt", error);
        QVERIFY2(user, error.c_str());
        QCOMPARE(user->rules().size(), size_t(2));
        PhaseMapping m = PhaseMapping::defaults();
        m.prepend(*user);
        QCOMPARE(m.phaseOf("run_training").value_or(""), std::string("train"));
        QCOMPARE(m.phaseOf("my_gen").value_or(""), std::string("rollout"));
        QCOMPARE(m.phaseOf("actor/compute_adv").value_or(""), std::string("adv"));
        QVERIFY(globMatch("a*b*c", "axxbyyc") && !globMatch("a*b*c", "axxbyy") && globMatch("*", ""));
    }

    void badMappingLineIsLocated()
    {
        std::string error;
        QVERIFY(!PhaseMapping::parse("gen = rollout\nno equals sign here\n", "/x/phases.txt", error));
        QCOMPARE(error, std::string("/x/phases.txt:2: error: expected 'LABEL = PHASE', got 'no equals sign here'"));
        QVERIFY(!PhaseMapping::parse("= rollout\n", "p", error));
        QVERIFY(error.rfind("p:1: error:", 0) == 0);
    }

    // Every step has the demo's four phases, in the order they run, on every rank; steps are
    // counted (the exports hold several steps and no ProfilerStep ranges).
    void demoRowsAndOrder()
    {
        const PhaseTable t = computePhaseTable(m_reports, PhaseMapping::defaults());
        QVERIFY(t.stepsCounted);
        QCOMPARE(t.columns.size(), m_reports.size());
        QCOMPARE(t.rows.size(), size_t(3 * kDemoPhases.size()));
        for (size_t i = 0; i < t.rows.size(); ++i) {
            const PhaseRow &r = t.rows[i];
            QCOMPARE(r.step, int64_t(i / kDemoPhases.size() + 1));
            QCOMPARE(r.phase, kDemoPhases[i % kDemoPhases.size()].second);
            for (const PhaseCell &c : r.cells)
                QVERIFY(c.present && c.occurrences == 1);
        }
    }

    // Each cell's wall time is the duration of that step's range in the export (SQL), and the
    // GPU breakdown inside it adds up.
    void demoWallTimesMatchSql()
    {
        const PhaseTable t = computePhaseTable(m_reports, PhaseMapping::defaults());
        for (size_t c = 0; c < t.columns.size(); ++c) {
            const std::string &path = m_reports[t.columns[c].report]->path;
            for (size_t p = 0; p < kDemoPhases.size(); ++p) {
                const std::vector<int64_t> sql = sqlDurations(path, kDemoPhases[p].first);
                QCOMPARE(sql.size(), size_t(3));
                for (size_t step = 0; step < 3; ++step) {
                    const PhaseCell &cell = t.rows[step * kDemoPhases.size() + p].cells[c];
                    QCOMPARE(cell.wallNs, sql[step]);
                    const GpuBreakdown &b = cell.gpu;
                    QCOMPARE(b.computeNs() + b.communicationNs() + b.memoryNs() + b.otherNs(), b.busyNs);
                    QCOMPARE(b.busyNs + b.idleNs, b.spanNs);
                    QVERIFY(b.spanNs <= cell.wallNs + 1000000); // GPU work may trail its range a little
                }
            }
        }
        // Training runs kernels; the demo's update phase communicates (NCCL per layer).
        const PhaseCell &train = t.rows[kDemoPhases.size() - 1].cells[0];
        QVERIFY(train.gpu.computeNs() > 0 && train.gpu.communicationNs() > 0);
    }

    // The demo's straggler is the slowest rank in every phase of every step.
    void demoStraggler()
    {
        const PhaseTable t = computePhaseTable(m_reports, PhaseMapping::defaults());
        const std::string expected = "ActorGroup:" + std::to_string(m_demo.stragglerRank);
        for (const PhaseRow &r : t.rows) {
            QVERIFY(r.straggler >= 0);
            QCOMPARE(t.columns[size_t(r.straggler)].label, expected);
            QVERIFY2(r.lagPct() > 5.0, qPrintable(QString::fromStdString(r.phase)));
            QCOMPARE(r.maxWallNs, r.cells[size_t(r.straggler)].wallNs);
        }
    }

    // Digests carry each report's phase cells (phasesummary.h): the table made from them alone
    // equals the one made from the events, cell by cell; a digest without a summary, or with a
    // damaged one, makes phaseTableFromDigests refuse (callers then read the events).
    void tableFromDigestSummaries()
    {
        QTemporaryDir dir;
        std::vector<std::string> digests;
        for (const tr::ReportPtr &r : m_reports) {
            tr::DigestOptions o;
            addPhaseSummary(*r, o);
            const std::string name = r->path.substr(r->path.find_last_of('/') + 1);
            digests.push_back(dir.filePath(QString::fromStdString(name)).toStdString() + ".psdigest");
            QCOMPARE(QString::fromStdString(tr::writeDigest(*r, digests.back(), o)), QString());
        }
        std::vector<tr::ReportPtr> columns;
        std::string error;
        const std::optional<PhaseTable> fromSummaries = phaseTableFromDigests(digests, columns, error);
        QVERIFY2(fromSummaries, error.c_str());
        const PhaseTable fromEvents = computePhaseTable(m_reports, PhaseMapping::defaults());
        QCOMPARE(fromSummaries->columns.size(), fromEvents.columns.size());
        for (size_t c = 0; c < fromEvents.columns.size(); ++c)
            QCOMPARE(fromSummaries->columns[c].label, fromEvents.columns[c].label);
        QCOMPARE(fromSummaries->rows.size(), fromEvents.rows.size());
        QCOMPARE(fromSummaries->stepsCounted, fromEvents.stepsCounted);
        for (size_t i = 0; i < fromEvents.rows.size(); ++i) {
            const PhaseRow &a = fromSummaries->rows[i], &b = fromEvents.rows[i];
            QCOMPARE(a.phase, b.phase);
            QCOMPARE(a.step, b.step);
            QCOMPARE(a.straggler, b.straggler);
            for (size_t c = 0; c < b.cells.size(); ++c) {
                QCOMPARE(a.cells[c].wallNs, b.cells[c].wallNs);
                QCOMPARE(a.cells[c].occurrences, b.cells[c].occurrences);
                QCOMPARE(a.cells[c].first.index, b.cells[c].first.index);
                QCOMPARE(a.cells[c].gpu.busyNs, b.cells[c].gpu.busyNs);
                QCOMPARE(a.cells[c].gpu.idleNs, b.cells[c].gpu.idleNs);
                QVERIFY(a.cells[c].gpu.exclusiveNs == b.cells[c].gpu.exclusiveNs);
                QCOMPARE(a.cells[c].gpu.commCompOverlapNs, b.cells[c].gpu.commCompOverlapNs);
            }
        }
        // A digest written without a summary.
        const std::string plain = dir.filePath("plain.sqlite.psdigest").toStdString();
        QCOMPARE(QString::fromStdString(tr::writeDigest(*m_reports[0], plain)), QString());
        std::vector<std::string> withPlain = digests;
        withPlain.push_back(plain);
        QVERIFY(!phaseTableFromDigests(withPlain, columns, error));
        QVERIFY2(error.find("plain.sqlite.psdigest: no phase summary") != std::string::npos, error.c_str());
        ReportPhaseCells cells;
        std::optional<int> rank;
        QVERIFY(!decodePhaseSummary("{\"version\": 1, \"cells\": 3}", cells, rank, error));
        QVERIFY2(error.find("phase summary: ") == 0, error.c_str());
    }

    // A report that is one step (nsys reportN) puts all its phases in that step.
    void reportStepFromIdentity()
    {
        QTemporaryDir dir;
        const QString copy = dir.filePath("report5.sqlite");
        QVERIFY(QFile::copy(QString::fromStdString(m_demo.reports[0].path), copy));
        tr::LoadOptions lo;
        lo.useCache = false;
        const tr::LoadResult loaded = tr::loadReports({copy.toStdString()}, lo);
        QCOMPARE(loaded.reports.size(), size_t(1));
        const PhaseTable t = computePhaseTable(loaded.reports, PhaseMapping::defaults());
        QVERIFY(!t.stepsCounted);
        QCOMPARE(t.rows.size(), kDemoPhases.size());
        for (const PhaseRow &r : t.rows) {
            QCOMPARE(r.step, int64_t(5));
            QCOMPARE(r.cells[0].occurrences, 3); // the three profiled steps' ranges, summed
        }
    }

    void cancelled()
    {
        tr::CancelToken cancel;
        cancel.cancel();
        const PhaseTable t = computePhaseTable(m_reports, PhaseMapping::defaults(), &cancel);
        QVERIFY(t.cancelled);
        QVERIFY(t.rows.empty());
    }

    // `demo --digests` writes the same run as digests only: the phase table (from their
    // summaries) and compare against the exports show no difference.
    void demoDigestsAnswerAsTheExports()
    {
        const QString digests = m_dir.filePath("digests");
        const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        ps::test::CliRun r = ps::test::runCli(
            {"demo", "--out", digests, "--ranks", "6", "--steps", "3", "--seed", "7", "--digests", "--summary-only"},
            env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QDir profiling(digests + "/profiling");
        QCOMPARE(profiling.entryList({"*.psdigest"}, QDir::Files).size(), 6);
        QCOMPARE(profiling.entryList({"*.sqlite"}, QDir::Files).size(), 0);
        const QString exports = QString::fromStdString(m_demo.reportDir);
        const ps::test::CliRun a =
            ps::test::runCli({"trace", "phases", "--no-cache", "--format", "json", exports}, env);
        const ps::test::CliRun b =
            ps::test::runCli({"trace", "phases", "--no-cache", "--format", "json", profiling.path()}, env);
        QVERIFY2(a.exitCode == 0 && b.exitCode == 0, qPrintable(a.err + b.err));
        QCOMPARE(QJsonDocument::fromJson(b.out.toUtf8()).object()["rows"],
                 QJsonDocument::fromJson(a.out.toUtf8()).object()["rows"]);
        r = ps::test::runCli({"trace", "compare", "--no-cache", "--format", "json", exports, profiling.path()}, env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject c = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(c["matched"].toArray().size(), 6);
        QVERIFY(!c["deltas"].toArray().isEmpty());
        for (const QJsonValue &d : c["deltas"].toArray())
            QCOMPARE(d.toObject()["candidate_ns"].toInteger(), d.toObject()["baseline_ns"].toInteger());
    }

    void cliJsonTextCsvAndMapping()
    {
        const QString runDir = QString::fromStdString(m_demo.reportDir);
        const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        ps::test::CliRun r = ps::test::runCli({"trace", "phases", "--no-cache", "--format", "json", runDir}, env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray columns = o["columns"].toArray();
        const QJsonArray rows = o["rows"].toArray();
        QCOMPARE(columns.size(), int(m_reports.size()));
        QCOMPARE(rows.size(), int(3 * kDemoPhases.size()));
        const QString straggler = "ActorGroup:" + QString::number(m_demo.stragglerRank);
        for (const QJsonValue &v : rows) {
            const QJsonObject row = v.toObject();
            QCOMPARE(columns[row["straggler"].toInt()].toObject()["label"].toString(), straggler);
            QCOMPARE(row["cells"].toArray().size(), columns.size());
        }

        r = ps::test::runCli({"trace", "phases", "--no-cache", runDir}, env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("update_actor") && r.out.contains(straggler), qPrintable(r.out));

        r = ps::test::runCli({"trace", "phases", "--no-cache", "--format", "csv", runDir}, env);
        QVERIFY(r.out.startsWith("step,phase,column,rank,wall_ns"));
        QCOMPARE(r.out.count('\n'), 1 + int(3 * kDemoPhases.size() * m_reports.size()));

        QTemporaryDir dir;
        QFile map(dir.filePath("phases.txt"));
        QVERIFY(map.open(QIODevice::WriteOnly));
        map.write("run_training = my_train\n");
        map.close();
        r = ps::test::runCli({"trace", "phases", "--no-cache", "--phases", map.fileName(), runDir}, env);
        QVERIFY2(r.out.contains("my_train") && !r.out.contains("update_actor"), qPrintable(r.out));

        QVERIFY(map.open(QIODevice::WriteOnly | QIODevice::Truncate));
        map.write("run_training = my_train\nbroken\n");
        map.close();
        r = ps::test::runCli({"trace", "phases", "--no-cache", "--phases", map.fileName(), runDir}, env);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith(map.fileName() + ":2: error:"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestPhases)
#include "tst_phases.moc"
