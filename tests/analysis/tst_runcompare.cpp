// Run against run (core/analysis/runcompare.h and `trace compare`): two demo runs whose planted
// stragglers differ. The comparison matches the ranks, names the phases that changed on the rank
// that became slow and on the one that recovered, lists unmatched reports, and fails a CI gate.
#include "core/analysis/runcompare.h"
#include "core/demo/demorun.h"
#include "core/trace/read/traceloader.h"
#include "tests/support/clirun.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace ps::core::analysis;
namespace tr = ps::core::trace;
namespace demo = ps::core::demo;

namespace {

std::vector<tr::ReportPtr> load(const std::string &dir)
{
    tr::LoadOptions lo;
    lo.useCache = false;
    return tr::loadReports({dir}, lo).reports;
}

const Delta *findDelta(const RunComparison &c, DeltaKind kind, const std::string &name, int64_t step)
{
    for (const Delta &d : c.deltas)
        if (d.kind == kind && d.name == name && d.step == step)
            return &d;
    return nullptr;
}

} // namespace

class TestRunCompare : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    demo::DemoResult m_base, m_cand;

    demo::DemoResult write(const QString &name, uint64_t seed)
    {
        demo::DemoOptions o;
        o.outDir = m_dir.filePath(name).toStdString();
        o.ranks = 4;
        o.steps = 2;
        o.seed = seed;
        demo::DemoResult r;
        std::string error;
        if (!demo::writeDemoRun(o, r, error))
            qFatal("demo: %s", error.c_str());
        return r;
    }

private slots:
    void initTestCase()
    {
        m_base = write("base", 1);
        // A seed whose straggler is another rank.
        for (uint64_t seed = 2; seed < 40; ++seed) {
            m_cand = write("cand", seed);
            if (m_cand.stragglerRank != m_base.stragglerRank)
                break;
            QDir(m_dir.filePath("cand")).removeRecursively();
        }
        QVERIFY(m_cand.stragglerRank != m_base.stragglerRank);
    }

    void matchesRanksAndListsTheRest()
    {
        const auto base = load(m_base.reportDir);
        auto cand = load(m_cand.reportDir);
        QCOMPARE(base.size(), size_t(4));
        cand.pop_back(); // one rank missing from the candidate
        const RunMatch m = matchReports(base, cand);
        QCOMPARE(m.pairs.size(), size_t(3));
        QCOMPARE(m.baselineOnly.size(), size_t(1));
        QVERIFY(m.candidateOnly.empty());
        for (const auto &[b, c] : m.pairs)
            QCOMPARE(matchKey(*base[b]), matchKey(*cand[c]));
        QCOMPARE(matchKey(*base[m.baselineOnly[0]]), std::string("ActorGroup:3"));
    }

    // The rank that started to straggle got slower in the phases it runs alone (no collectives),
    // the one that stopped got faster. In the phases with collectives every rank waits for the
    // slowest, so the new straggler's wall changes as much as the old one's.
    void findsTheChangedPhases()
    {
        const RunComparison c = compareRuns(load(m_base.reportDir), load(m_cand.reportDir), {});
        QVERIFY(!c.cancelled);
        const std::string slower = "ActorGroup:" + std::to_string(m_cand.stragglerRank);
        const std::string faster = "ActorGroup:" + std::to_string(m_base.stragglerRank);
        QCOMPARE(m_base.profiledSteps, m_cand.profiledSteps);
        for (const int profiled : m_base.profiledSteps) { // the steps the demo's config names (2, 3)
            const int64_t step = profiled;
            for (const char *phase : {"recv_trajectories", "adv"}) {
                const Delta *up = findDelta(c, DeltaKind::PhaseRank, slower + " " + phase, step);
                const Delta *down = findDelta(c, DeltaKind::PhaseRank, faster + " " + phase, step);
                QVERIFY(up && down);
                QVERIFY2(up->changed && *up->deltaPct() > 15, phase);
                QVERIFY2(down->changed && *down->deltaPct() < -15, phase);
            }
            for (const char *phase : {"weight_sync", "update_actor"}) {
                const Delta *up = findDelta(c, DeltaKind::PhaseRank, slower + " " + phase, step);
                const Delta *down = findDelta(c, DeltaKind::PhaseRank, faster + " " + phase, step);
                QVERIFY(up && down);
                QVERIFY2(std::abs(*up->deltaPct() - *down->deltaPct()) < 5, phase);
            }
        }
        for (size_t i = 1; i < c.deltas.size(); ++i)
            QVERIFY(std::llabs(c.deltas[i - 1].deltaNs()) >= std::llabs(c.deltas[i].deltaNs()));
        // Breakdown rows exist and add up on each side.
        int64_t base = 0, cand = 0;
        for (const char *part : {"compute", "communication", "memory", "other", "idle"}) {
            const Delta *d = findDelta(c, DeltaKind::Breakdown, part, 0);
            if (!d) {
                for (const Delta &x : c.deltas)
                    if (x.kind == DeltaKind::Breakdown && x.name == part)
                        d = &x;
            }
            QVERIFY2(d, part);
            base += d->baselineNs;
            cand += d->candidateNs;
        }
        const Delta *span = nullptr;
        for (const Delta &x : c.deltas)
            if (x.kind == DeltaKind::Breakdown && x.name == "gpu span")
                span = &x;
        QVERIFY(span);
        QCOMPARE(base, span->baselineNs);
        QCOMPARE(cand, span->candidateNs);
    }

    // Every phase delta says where its time went in each run, for the desktop to select it: a
    // rank's row the range of that rank in that step, a phase row its slowest rank's.
    void phaseDeltasNameTheirRanges()
    {
        const auto base = load(m_base.reportDir);
        const auto cand = load(m_cand.reportDir);
        const RunComparison c = compareRuns(base, cand, {});
        const PhaseMapping mapping = PhaseMapping::defaults();
        size_t checked = 0;
        for (const Delta &d : c.deltas) {
            if (d.kind != DeltaKind::Phase && d.kind != DeltaKind::PhaseRank) {
                QVERIFY(!d.baselineSite && !d.candidateSite);
                continue;
            }
            for (const auto &[site, run, ns] :
                 {std::tuple{d.baselineSite, &base, d.baselineNs}, std::tuple{d.candidateSite, &cand, d.candidateNs}}) {
                QVERIFY2(site, d.name.c_str()); // the demo's ranks run every phase in every step
                const tr::Report &r = *(*run)[site->report];
                const tr::Track &t = r.store->track(site->range.track);
                const std::string label(r.store->name(t.name(site->range.index)));
                QVERIFY2(d.name.ends_with(mapping.phaseOf(label).value_or("?")), (d.name + " at " + label).c_str());
                // One range per phase and step in the demo: the cell's wall time is the range's.
                QCOMPARE(t.duration(site->range.index), ns);
                if (d.kind == DeltaKind::PhaseRank)
                    QVERIFY2(d.name.starts_with(r.identity.group + ":" + std::to_string(*r.identity.rank) + " "),
                             d.name.c_str());
                ++checked;
            }
        }
        QVERIFY(checked >= 2 * 4 * 2 * 4); // every rank's row of four phases in two steps, both runs
    }

    // Runs that profiled different steps (their configs say 2, 3 and 7, 8) compare step by step
    // in that order, under the baseline's numbers, and say so: no phase is "new" or "gone".
    void differentProfiledStepsCompareInOrder()
    {
        demo::DemoOptions o;
        o.outDir = m_dir.filePath("later").toStdString();
        o.ranks = 4;
        o.steps = 2;
        o.seed = 1;
        o.firstStep = 7;
        demo::DemoResult later;
        std::string error;
        QVERIFY2(demo::writeDemoRun(o, later, error), error.c_str());
        const RunComparison c = compareRuns(load(m_base.reportDir), load(later.reportDir), {});
        for (const Delta &d : c.deltas)
            if (d.kind == DeltaKind::Phase || d.kind == DeltaKind::PhaseRank) {
                QVERIFY2(d.step == 2 || d.step == 3, d.name.c_str());
                QVERIFY2(d.baselineNs > 0 && d.candidateNs > 0, d.name.c_str());
            }
        QVERIFY(findDelta(c, DeltaKind::Phase, "update_actor", 3));
        QCOMPARE(c.problems.size(), size_t(1));
        QVERIFY2(c.problems[0].find("profiled different steps (baseline 2, 3; candidate 7, 8)") != std::string::npos,
                 c.problems[0].c_str());
    }

    void sameRunHasNoChange()
    {
        const RunComparison c = compareRuns(load(m_base.reportDir), load(m_base.reportDir), {});
        QCOMPARE(c.match.pairs.size(), size_t(4));
        for (const Delta &d : c.deltas) {
            QCOMPARE(d.deltaNs(), int64_t(0));
            QVERIFY(!d.changed);
        }
    }

    void cliFormatsAndGate()
    {
        const auto env = QProcessEnvironment::systemEnvironment();
        const QString base = QString::fromStdString(m_base.reportDir);
        const QString cand = QString::fromStdString(m_cand.reportDir);
        ps::test::CliRun r = ps::test::runCli({"trace", "compare", "--no-cache", "--format", "json", base, cand}, env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err)); // no --fail-above: a report, not a gate
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["matched"].toArray().size(), 4);
        QVERIFY(o["baseline_only"].toArray().isEmpty() && o["candidate_only"].toArray().isEmpty());
        const QJsonArray deltas = o["deltas"].toArray();
        QVERIFY(!deltas.isEmpty());
        bool phaseRank = false;
        for (const QJsonValue &v : deltas)
            phaseRank = phaseRank || v.toObject()["kind"].toString() == "phase_rank";
        QVERIFY(phaseRank);

        r = ps::test::runCli({"trace", "compare", "--no-cache", "--fail-above", "10", base, cand}, env);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("phase_rank") && r.out.contains("Matched 4 report(s)"), qPrintable(r.out));
        r = ps::test::runCli({"trace", "compare", "--no-cache", "--fail-above", "10", base, base}, env);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("0 change(s)"), qPrintable(r.out));

        r = ps::test::runCli({"trace", "compare", "--no-cache", "--format", "csv", base, cand}, env);
        QVERIFY(r.out.startsWith("kind,step,name,baseline_ns,candidate_ns,delta_ns,delta_pct,changed\n"));

        r = ps::test::runCli({"trace", "compare", "--no-cache", base}, env);
        QCOMPARE(r.exitCode, 2);
        r = ps::test::runCli({"trace", "compare", "--tolerance", "x", base, cand}, env);
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestRunCompare)
#include "tst_runcompare.moc"
