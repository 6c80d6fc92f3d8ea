// Diagnostics that repeat per rank are one line listing the ranks: the fold on its own, and in
// Configure's Diagnostics pane on verl main with a rollout rank range past the run's 8 GPUs
// (92 ranks out of range: one line, not 92).

#include "core/profiling/diagnosticfold.h"
#include "tests/configure/configuretestutil.h"
#include "views/config/configurepanes.h"
#include "views/config/configureworkspace.h"
#include "views/config/diagnosticspane.h"

#include <QStandardPaths>
#include <QTreeWidget>
#include <QtTest>

using namespace ps::views;
using namespace ps::core::profiling;

class TestDiagnosticFold : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void compactLists()
    {
        QCOMPARE(compactNumberList({7, 3, 4, 5, 9, 10, 3}), std::string("3-5, 7, 9, 10"));
        QCOMPARE(compactNumberList({}), std::string());
    }

    // Lines differing in one number fold; the other numbers and other lines stay as they are.
    void foldsOneVaryingNumber()
    {
        std::vector<DiagnosticLine> lines;
        lines.push_back({"warning", "a.rule", "something else at step 2", "f.yaml:3:1", "k"});
        for (int r : {12, 10, 11, 14})
            lines.push_back({"warning", "b.rule", "worker rank " + std::to_string(r) + " of 8 GPUs", "", "x.ranks"});
        lines.push_back({"error", "b.rule", "worker rank 3 of 8 GPUs", "", "x.ranks"}); // other severity
        const auto folded = foldRepeatedDiagnostics(lines);
        QCOMPARE(folded.size(), size_t(3));
        QCOMPARE(folded[0].line.message, lines[0].message);
        QCOMPARE(folded[1].line.message, std::string("worker rank 10-12, 14 of 8 GPUs (4 times)"));
        QCOMPARE(folded[1].members, (std::vector<size_t>{1, 2, 3, 4}));
        QCOMPARE(folded[1].line.key, std::string("x.ranks"));
        QCOMPARE(folded[2].line.severity, std::string("error"));
        // Two alike lines stay two lines.
        lines.resize(3);
        QCOMPARE(foldRepeatedDiagnostics(lines).size(), size_t(3));
    }

    void configurePaneFoldsPerRankLines()
    {
        ConfigureWorkspace ws;
        ws.resize(1366, 768);
        ws.show();
        QStringList ranks;
        for (int r = 0; r < 100; ++r)
            ranks << QString::number(r);
        ws.openConfig({cfgtest::testdata("configs/verl-versions/main-1dda039b/verl/trainer/config")}, "ppo_trainer",
                      {"global_profiler.tool=nsys", "global_profiler.steps=[1]",
                       "actor_rollout_ref.actor.profiler.enable=True",
                       "actor_rollout_ref.actor.profiler.ranks=[" + ranks.join(',') + "]"});
        QVERIFY(cfgtest::settle(ws));
        QVERIFY2(ws.result()->composed, ws.result()->error.c_str());
        int perRank = 0;
        for (const auto &d : ws.result()->analysis->diagnostics)
            perRank += d.rule == "verl.rollout-rank-out-of-range";
        QCOMPARE(perRank, 92); // the engine's lines: one per rank 8..99
        DiagnosticsPane *pane = ws.panes()->diagnostics();
        const auto rows = pane->findItems("verl.rollout-rank-out-of-range", Qt::MatchExactly, 2);
        QCOMPARE(rows.size(), 1);
        const QString text = rows.front()->text(1);
        QVERIFY2(text.contains("rank 8-99 ") && text.contains("(92 times)"), qPrintable(text));
        QVERIFY(pane->topLevelItemCount() < 10);
        QCOMPARE(pane->warningCount(), perRank + 1); // counts stay the engine's
    }
};

QTEST_MAIN(TestDiagnosticFold)
#include "tst_diagnosticfold.moc"
