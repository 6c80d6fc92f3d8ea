// The RL phase table (core/analysis/phases/phases.h) and `trace phases`: the label mapping (verl's and
// RLinf's own labels, user rules, mapping-file errors), and on a demo run the phases per step, the
// wall times against SQL over the same exports, and the straggler the demo planted.
#include "core/analysis/phases/phases.h"
#include "core/analysis/phases/phasestraggler.h"
#include "core/analysis/phases/phasesummary.h"
#include "core/demo/demorun.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/traceloader.h"
#include "tests/support/clirun.h"
#include "tests/support/demorun.h"
#include "tests/support/sqlref.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

#include <algorithm>

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
        m_demo = writeTestDemo(m_dir.filePath("run"), 6, 3, 7);
        QVERIFY(m_demo.stragglerRank >= 0);
        tr::LoadOptions lo;
        lo.useCache = false;
        std::vector<std::string> paths;
        for (const auto &r : m_demo.reports)
            paths.push_back(r.path);
        tr::LoadResult loaded = tr::loadReports(paths, lo);
        QCOMPARE(loaded.reports.size(), size_t(6));
        m_reports = loaded.reports;
    }

    // Aligning on a phase as on a range (#38): the demo has no range named update_actor (its
    // phase is RLinf's run_training), yet `trace align --by range:update_actor#2` places every
    // report's second update_actor at 0, without a warning.
    void alignsOnAPhaseName()
    {
        const QString runDir = QString::fromStdString(m_demo.reportDir);
        const ps::test::CliRun r = ps::test::runCli(
            {"trace", "align", "--no-cache", "--by", "range:update_actor#2", "--format", "json", runDir});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.err.contains("warning"), qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["used"].toString(), QStringLiteral("range:update_actor#2"));
        QVERIFY(o["warnings"].toArray().isEmpty());
        const QJsonArray reports = o["reports"].toArray();
        QCOMPARE(reports.size(), qsizetype(m_reports.size()));
        for (const QJsonValue &v : reports) {
            const auto it = std::find_if(m_reports.begin(), m_reports.end(), [&](const tr::ReportPtr &p) {
                return p->path == v["path"].toString().toStdString();
            });
            QVERIFY(it != m_reports.end());
            std::vector<int64_t> starts;
            for (const PhaseOccurrence &p : findPhases(*(*it)->store, PhaseMapping::defaults(), std::nullopt))
                if (p.phase == "update_actor")
                    starts.push_back(p.window.start);
            QVERIFY(starts.size() >= 2);
            QCOMPARE(v["offset_ns"].toInteger(), -starts[1]);
        }
    }

    // A malformed phase summary is refused with the reason, never read past (fuzz_digest found a
    // lookup after a failed one reading through a null parser; its input is replayed by the
    // fuzz smoke from tests/fuzz/regressions/fuzz_digest/).
    void malformedSummaryIsRefused_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("truncated rank") << QStringLiteral("{\"version\":1,\"rank\":[1,\"counted\":false");
        QTest::newRow("junk after the object") << QStringLiteral("{\"version\":1,\"counted\":false,\"cells\":[]}xx");
        QTest::newRow("cell no object") << QStringLiteral("{\"version\":1,\"counted\":true,\"cells\":[3]}");
        QTest::newRow("not json") << QStringLiteral("\xff\xfe");
    }
    void malformedSummaryIsRefused()
    {
        QFETCH(QString, json);
        ReportPhaseCells cells;
        std::optional<int> rank;
        std::string error;
        QVERIFY(!decodePhaseSummary(json.toStdString(), cells, rank, error));
        QVERIFY2(error.starts_with("phase summary: "), error.c_str());
        QVERIFY(decodePhaseSummary("{\"version\":1,\"rank\":null,\"counted\":false,\"cells\":[]}", cells, rank, error));
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
        // The search a phase's ranges are found by matches each label its rules map to it, with
        // or without a domain, and nothing longer; a glob's '*' too.
        const PhaseMapping defaults = PhaseMapping::defaults();
        for (const PhaseRule &r : defaults.rules()) {
            const QRegularExpression re(QString::fromStdString(defaults.labelPattern(r.phase)));
            QVERIFY2(re.isValid(), qPrintable(re.pattern()));
            const QString label = QString::fromStdString(r.pattern);
            QVERIFY2(re.match(label).hasMatch(), qPrintable(label + " / " + re.pattern()));
            QVERIFY(re.match(QStringLiteral("verl:") + label).hasMatch());
            QVERIFY(!re.match(label + QStringLiteral("_x")).hasMatch());
        }
        const QRegularExpression train(QString::fromStdString(m.labelPattern("train")));
        QVERIFY(train.match(QStringLiteral("run_training")).hasMatch());
        QVERIFY(!train.match(QStringLiteral("my_gen")).hasMatch());
        QCOMPARE(defaults.labelPattern("no_such_phase"), std::string("^([^:]*:)?(no_such_phase)$"));
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
    // counted (the exports hold several steps and no ProfilerStep ranges) and numbered as the
    // run's config names the profiled steps (2, 3, 4: stepnumbering.h).
    void demoRowsAndOrder()
    {
        const PhaseTable t = computePhaseTable(m_reports, PhaseMapping::defaults());
        QVERIFY(!t.stepsCounted);
        QCOMPARE(t.stepsFrom, "cluster.profiling.steps in " + m_demo.configPath);
        QCOMPARE(t.columns.size(), m_reports.size());
        QCOMPARE(t.rows.size(), size_t(3 * kDemoPhases.size()));
        for (size_t i = 0; i < t.rows.size(); ++i) {
            const PhaseRow &r = t.rows[i];
            QCOMPARE(r.step, int64_t(m_demo.profiledSteps[i / kDemoPhases.size()]));
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

    // The demo's straggler is named in every phase of every step: by its arrival where the phase
    // has collectives (its lag is the others' wait), by work time where it has none (there it is
    // also the slowest).
    void demoStraggler()
    {
        const PhaseTable t = computePhaseTable(m_reports, PhaseMapping::defaults());
        const std::string expected = "ActorGroup:" + std::to_string(m_demo.stragglerRank);
        for (const PhaseRow &r : t.rows) {
            QVERIFY(r.straggler >= 0);
            QCOMPARE(t.columns[size_t(r.straggler)].label, expected);
            QVERIFY2(r.lagNs > 0, qPrintable(QString::fromStdString(r.phase)));
            const bool synchronized = r.phase == "weight_sync" || r.phase == "update_actor";
            QCOMPARE(r.byArrival, synchronized);
            if (!synchronized) {
                QVERIFY2(r.lagPct() > 5.0, qPrintable(QString::fromStdString(r.phase)));
                QCOMPARE(r.maxWallNs, r.cells[size_t(r.straggler)].wallNs);
            }
        }
    }

    // No late rank, no straggler: equal work on every rank names none rather than the first.
    void tiesNameNoStraggler()
    {
        PhaseRow row;
        row.cells.resize(3);
        for (PhaseCell &c : row.cells) {
            c.present = true;
            c.wallNs = 5000000;
        }
        chooseStraggler(row, nullptr, {});
        QCOMPARE(row.straggler, -1);
        QCOMPARE(row.lagNs, int64_t(0));
        row.cells[1].wallNs = 6000000;
        chooseStraggler(row, nullptr, {});
        QCOMPARE(row.straggler, 1);
        QCOMPARE(row.lagNs, int64_t(1000000));
        // Collectives where nobody waited: no late rank, whatever the walls say.
        CollectivePhaseRow quiet;
        quiet.instances = 4;
        chooseStraggler(row, &quiet, {{0, 0}, {1, 1}, {2, 2}});
        QCOMPARE(row.straggler, -1);
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

        // A FIFO as the --phases file: refused at once (it hung, waiting for a writer).
        const QByteArray fifo = dir.filePath("phases.fifo").toLocal8Bit();
        QCOMPARE(::mkfifo(fifo.constData(), 0600), 0);
        r = ps::test::runCli({"trace", "phases", "--no-cache", "--phases", QString::fromLocal8Bit(fifo), runDir}, env);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QString::fromLocal8Bit(fifo) + ": not a regular file"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestPhases)
#include "tst_phases.moc"
