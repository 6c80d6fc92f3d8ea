// The matcher takes the instances of ranks that agree a block at a time, a rank at a time
// (core/analysis/collectives/collectivematch.cpp), and hands the rest one at a time. Both must give the same
// answers to the last nanosecond: on runs of synchronous collectives with the irregularities real
// runs have scattered through them (a rank that recorded another op or size, a member that ended
// long before another arrived, ranks with fewer collectives, a Seq repeated or skipped, kernels
// known by name only on two streams, groups and point-to-point pairs), every instance, group,
// rank total, note, phase row and wait is compared with blocks on and off.
#include "core/analysis/collectives/collectives.h"
#include "core/analysis/collectives/collectivewait.h"
#include "core/analysis/phases/collectivephases.h"
#include "core/analysis/phases/collectivestream.h"
#include "core/trace/alignment.h"
#include "core/trace/store/storebuilder.h"

#include <QtTest>

#include <random>
#include <sstream>

using namespace ps::core::analysis;
using namespace ps::core::trace;

namespace {

// How a run is written: `ranks` ranks each recording `count` collectives in one group, every
// rank's kernel ending when the last arrives (plus the transfer), and what to plant.
struct RunSpec
{
    int ranks = 5;
    size_t count = 700;
    bool withSeq = false;
    bool byName = false;               // NCCL kernels without c10d args, on two streams
    bool pairs = false;                // point-to-point: each rank sends to the next
    size_t shortRank = 3, missing = 7; // rank shortRank records `missing` fewer
    size_t otherOpAt = 57, otherSizeAt = 123, lateAt = 200, seqTwiceAt = 300, seqSkippedAt = 450;
};

// Ranks arrive at a shared schedule with their own jitter; the collective ends together.
std::vector<ReportPtr> writeRun(const RunSpec &spec)
{
    std::mt19937 rng(7);
    std::vector<std::vector<int64_t>> arrive(size_t(spec.ranks), std::vector<int64_t>(spec.count));
    std::vector<int64_t> lastArrival(spec.count, 0); // of the ranks that wait for each other
    for (size_t k = 0; k < spec.count; ++k)
        for (int r = 0; r < spec.ranks; ++r) {
            // A 5 s pause after lateAt, in which rank 1 arrives at lateAt 3 s late: the others had
            // ended long before (not the same instance: runs mixed, or clocks apart).
            const int64_t pause = k > spec.lateAt ? 5'000'000'000 : 0;
            const int64_t late = k == spec.lateAt && r == 1 ? 3'000'000'000 : 0;
            // Coarse jitter: ranks often arrive together, and the lowest of them is named last.
            arrive[size_t(r)][k] = int64_t(k) * 2'000'000 + pause + int64_t(rng() % 4) * 75'000;
            lastArrival[k] = std::max(lastArrival[k], arrive[size_t(r)][k]);
            arrive[size_t(r)][k] += late;
        }
    std::string rankList = "[";
    for (int r = 0; r < spec.ranks; ++r)
        rankList += (r ? ", " : "") + std::to_string(r);
    rankList += "]";
    std::vector<ReportPtr> run;
    for (int r = 0; r < spec.ranks; ++r) {
        StoreBuilder b;
        const TrackHandle streams[2] = {b.track({TrackKind::Kernel, 1, 20, 0}), b.track({TrackKind::Kernel, 1, 21, 0})};
        const TrackHandle driver = b.track({TrackKind::NvtxPushPop, 1, 1, 0});
        for (int step = 0; step < 7; ++step) // phases the instances fall in, and some outside them
            b.add(driver, int64_t(step) * 200'000'000, int64_t(step) * 200'000'000 + 150'000'000,
                  b.intern(step % 2 ? "update_actor" : "gen"));
        const size_t count = size_t(r) == spec.shortRank ? spec.count - spec.missing : spec.count;
        for (size_t k = 0; k < count; ++k) {
            const int64_t start = arrive[size_t(r)][k], end = std::max(start, lastArrival[k]) + 400'000;
            const bool other = (k == spec.otherOpAt && r == 3);
            const std::string kernel =
                std::string("ncclDevKernel_") + (other ? "AllGather" : "AllReduce") + "_Sum_bf16";
            const TrackHandle lane = streams[spec.byName ? k % 2 : 0];
            b.add(lane, start, end, b.intern(kernel));
            if (spec.byName)
                continue;
            CollectiveRecord c;
            c.op = b.intern(spec.pairs ? (k % 2 ? "recv" : "send") : other ? "allgather" : "allreduce");
            c.groupName = b.intern("0");
            c.groupRanks = b.intern(rankList);
            c.dtype = b.intern("BFloat16");
            c.groupSize = spec.ranks;
            c.inNelems = c.outNelems = (k == spec.otherSizeAt && r == 1) ? 2048 : 1024;
            if (spec.pairs) {
                c.peer = (r + (k % 2 ? spec.ranks - 1 : 1)) % spec.ranks;
                c.groupRanks = kNoName;
                c.groupSize = -1;
            }
            c.start = start;
            c.end = end;
            c.stream = 20;
            if (spec.withSeq) {
                c.seq = int64_t(k) + 1;
                if (r == 2 && k == spec.seqTwiceAt)
                    c.seq = int64_t(k); // the Seq of the one before, again
                if (r == 0 && k >= spec.seqSkippedAt)
                    c.seq = int64_t(k) + 2; // one Seq skipped
            }
            b.addCollective(lane, c);
        }
        auto rep = std::make_shared<Report>();
        rep->path = "/runs/blocks/rank-" + std::to_string(r) + ".json";
        rep->identity.rank = r;
        rep->store = std::make_shared<const EventStore>(std::move(b).build());
        run.push_back(rep);
    }
    return run;
}

void print(std::ostream &o, const CollectiveRankTotals &t)
{
    o << " r" << t.rank << ":" << t.collectives << "/" << t.waitNs << "/" << t.transferNs << "/" << t.arrivedLast << "/"
      << t.waitCausedNs;
}

// Everything the analysis says, as text: two analyses are the same when their texts are.
std::string describe(const CollectiveAnalysis &a, const std::vector<CollectivePhaseRow> &phases)
{
    std::ostringstream o;
    o << "count " << a.instanceCount << " complete " << a.completeCount << "\n";
    for (const CollectiveInstance &i : a.instances) {
        o << i.group << "|" << i.groupDesc << "|" << i.op << "|" << i.index << "|" << int(i.method) << "|"
          << i.groupSize << "|" << i.complete << "|" << i.problem << "|" << i.lastRank << "|" << i.skewNs << "|"
          << i.transferNs << "|" << i.bytes.value_or(0) << "|" << i.algbwGBps.value_or(-1) << "|"
          << i.busbwGBps.value_or(-1) << "|";
        for (const CollectiveMember &m : i.members)
            o << " " << m.rank << "," << m.report << "," << m.event.track << "." << m.event.index << "," << m.startNs
              << "," << m.endNs << "," << m.waitNs << "," << m.record;
        o << "\n";
    }
    for (const CollectiveGroupSummary &g : a.groups) {
        o << "group " << g.group << " " << g.instances << " " << g.complete << " " << g.waitNs << " " << g.transferNs
          << " " << g.medianBusbwGBps.value_or(-1) << " " << g.mostOftenLast << " " << g.timesLast;
        for (const CollectiveRankTotals &t : g.ranks)
            print(o, t);
        o << "\n";
    }
    for (const CollectiveRankTotals &t : a.ranks)
        print(o, t);
    for (const std::string &n : a.notes)
        o << "\nnote " << n;
    for (const std::string &e : a.errors)
        o << "\nerror " << e;
    for (const CollectivePhaseRow &p : phases) {
        o << "\nphase " << p.step << " " << p.phase << " " << p.instances << " " << p.waitNs << " " << p.transferNs
          << " " << p.lastRank << " " << p.timesLast << " " << p.straggler << " " << p.lagNs;
        for (const CollectiveRankTotals &t : p.ranks)
            print(o, t);
    }
    return o.str();
}

std::string analyzed(const std::vector<ReportPtr> &run, CollectiveQuery q)
{
    const RunCollectives r = collectivesOfRun(
        run, [&](size_t i) { return phaseOccurrencesOf(*run[i], PhaseMapping::defaults()); }, nullptr, q);
    return describe(r.analysis, r.phases);
}

CollectiveQuery oneAtATime(CollectiveQuery q)
{
    q.inBlocks = false;
    return q;
}

} // namespace

class TestCollectiveBlocks : public QObject
{
    Q_OBJECT

private:
    void sameEitherWay(const RunSpec &spec)
    {
        const std::vector<ReportPtr> run = writeRun(spec);
        const std::string blocks = analyzed(run, {});
        const AlignResult aligned = alignReports(run, AlignSpec{});
        // Most instances are complete, a few are not: both kinds are compared.
        const CollectiveAnalysis a = analyzeCollectives(run, aligned.offsets);
        QVERIFY2(a.completeCount >= a.instanceCount * 8 / 10 && a.completeCount < a.instanceCount,
                 qPrintable(QString("%1 of %2 complete").arg(a.completeCount).arg(a.instanceCount)));
        QCOMPARE(blocks, analyzed(run, oneAtATime({})));
        // Held as copies (a run of digests read one report at a time): the same again.
        std::vector<ReportPtr> opened;
        const RunCollectives held = collectivesOfOpened(
            run.size(), [&](size_t i) { return run[i]; },
            [](const Report &r) { return phaseOccurrencesOf(r, PhaseMapping::defaults()); }, 2, opened);
        QCOMPARE(describe(held.analysis, held.phases), blocks);
        // The worst ten and the first ten incomplete, filtered by op: kept and summed alike.
        CollectiveQuery worst;
        worst.keep = CollectiveQuery::Keep::Worst;
        worst.worst = 10;
        worst.select = [](std::string_view, std::string_view op) { return op != "allgather"; };
        QCOMPARE(analyzed(run, worst), analyzed(run, oneAtATime(worst)));
        // Each report's waits, as the breakdown's split reads them.
        const RunWaits waits = collectiveWaitsOfRun(run);
        CollectiveQuery all;
        all.inBlocks = false;
        const CollectiveAnalysis one = analyzeCollectives(run, aligned.offsets, nullptr, 1, all);
        const auto expected = memberWaitsByReport(one, aligned.offsets, run.size());
        QCOMPARE(waits.byReport.size(), expected.size());
        for (size_t r = 0; r < expected.size(); ++r) {
            QCOMPARE(waits.byReport[r].size(), expected[r].size());
            for (size_t i = 0; i < expected[r].size(); ++i) {
                QCOMPARE(waits.byReport[r][i].record, expected[r][i].record);
                QCOMPARE(waits.byReport[r][i].start, expected[r][i].start);
                QCOMPARE(waits.byReport[r][i].end, expected[r][i].end);
            }
        }
    }

private slots:
    void byGroupOrder() { sameEitherWay({}); }

    void bySeqWithOneRepeatedAndOneSkipped()
    {
        RunSpec s;
        s.withSeq = true;
        const std::vector<ReportPtr> run = writeRun(s);
        const std::string text = analyzed(run, {});
        QVERIFY2(text.find("recorded it twice") != std::string::npos, "the repeated Seq is reported");
        sameEitherWay(s);
    }

    void kernelsKnownByNameOnTwoStreams()
    {
        RunSpec s;
        s.byName = true;
        sameEitherWay(s);
    }

    // Enough ranks that a block is cut by its records (16384 a block, so 126 instances of 130
    // ranks) rather than by the 256-instance cap the other cases meet.
    void manyRanksManyBlocks()
    {
        RunSpec s;
        s.ranks = 130;
        s.count = 400;
        s.shortRank = 77;
        sameEitherWay(s);
    }
};

QTEST_APPLESS_MAIN(TestCollectiveBlocks)
#include "tst_collectiveblocks.moc"
