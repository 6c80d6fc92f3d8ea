// Collectives matched across ranks (core/analysis/collectives/collectives.h) and `trace collectives`: on
// per-rank Kineto traces of synchronous loops written by the tests' own generator
// (tests/support/syncloop.h) with late ranks planted in several groups and steps; on the real
// samples (HTA's two sampled ranks of a 128-rank job, the Ascend pair, nsys and rocpd exports);
// and on bad input (a rank twice, a group size its ranks contradict, runs mixed).
#include "core/analysis/collectives/collectivekinds.h"
#include "core/analysis/collectives/collectives.h"
#include "core/analysis/phases/phases.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/store/collectiverecord.h"
#include "core/trace/store/namedcollectives.h"
#include "core/trace/store/storebuilder.h"
#include "tests/support/clirun.h"
#include "tests/support/digestdamage.h"
#include "tests/support/syncloop.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <map>

using namespace ps::core::analysis;
using ps::test::ExpectedInstance;
using ps::test::PlantedDelay;
using ps::test::SyncLoopSpec;
using ps::test::SyncLoopWriter;

namespace {

// Rank 5 computes 25 ms longer in steps 4-12 (the world allreduce waits for it); rank 2 is
// 4 ms late to its group's allgather in steps 6-8, rank 7 3 ms late to its group's in step 14.
SyncLoopSpec plantedSpec(bool withSeq)
{
    SyncLoopSpec s;
    s.withSeq = withSeq;
    s.delays = {{5, 4, 12, false, 25'000'000}, {2, 6, 8, true, 4'000'000}, {7, 14, 14, true, 3'000'000}};
    return s;
}

QJsonObject runJson(const QStringList &args, int expectedExit = 0)
{
    const ps::test::CliRun r =
        ps::test::runCli(QStringList{"trace", "collectives", "--no-cache", "--format", "json"} + args);
    if (r.exitCode != expectedExit)
        qWarning("exit %d: %s", r.exitCode, qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

// `trace phases --format json` of a folder.
QJsonObject phasesJson(const QString &folder)
{
    const ps::test::CliRun r = ps::test::runCli({"trace", "phases", "--no-cache", "--format", "json", folder});
    if (r.exitCode != 0)
        qWarning("exit %d: %s", r.exitCode, qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

QString sample(const QString &rel)
{
    return QStringLiteral(PS_TESTDATA_DIR "/traces/") + rel;
}

// The instance of (group, op, step) in the JSON; steps are the k-th instance of the group.
QJsonObject findInstance(const QJsonArray &all, const std::string &group, int step)
{
    for (const QJsonValue &v : all) {
        const QJsonObject o = v.toObject();
        if (o["group"].toString().toStdString() == group && o["index"].toInt() == step)
            return o;
    }
    return {};
}

} // namespace

class TestCollectives : public QObject
{
    Q_OBJECT

private:
    // Every expected instance against the JSON: last rank, each member's wait within 1 µs,
    // transfer and bytes exact, busbw within 1 %.
    void checkAgainstGenerator(bool withSeq)
    {
        QTemporaryDir dir;
        const std::vector<ExpectedInstance> expected =
            SyncLoopWriter(plantedSpec(withSeq)).write(dir.path().toStdString());
        const QJsonObject j = runJson({dir.path()});
        const QJsonArray all = j["collectives"].toArray();
        QCOMPARE(all.size(), qsizetype(expected.size()));
        for (const ExpectedInstance &e : expected) {
            // With Seq the index is the sequence number (step + 1); without, the k-th (step).
            const QJsonObject o = findInstance(all, e.group, withSeq ? e.step + 1 : e.step);
            QVERIFY2(!o.isEmpty(), e.group.c_str());
            QCOMPARE(o["match"].toString(), withSeq ? QStringLiteral("kineto-seq") : QStringLiteral("kineto-pg-index"));
            QVERIFY2(o["complete"].toBool(), qPrintable(o["problem"].toString()));
            QCOMPARE(o["op"].toString().toStdString(), e.op);
            QCOMPARE(o["last_rank"].toInt(), e.lastRank);
            QCOMPARE(o["transfer_ns"].toInteger(), e.transferNs);
            QCOMPARE(uint64_t(o["bytes"].toInteger()), e.bytes);
            QVERIFY(std::abs(o["busbw_gbps"].toDouble() - e.busbwGBps) <= 0.01 * e.busbwGBps);
            const QJsonArray members = o["members"].toArray();
            QCOMPARE(members.size(), qsizetype(e.waitNs.size()));
            for (const QJsonValue &m : members) {
                const int rank = m.toObject()["rank"].toInt();
                QVERIFY(std::llabs(m.toObject()["wait_ns"].toInteger() - e.waitNs.at(rank)) <= 1000);
            }
        }
    }

private slots:
    void kindsBytesAndBusBandwidthFactors()
    {
        // PyTorch's, NCCL kernels' and HCCL's spellings of one collective meet.
        for (const char *op : {"allgather", "_allgather_base", "all_gather_into_tensor_coalesced", "AllGather"})
            QCOMPARE(collectiveKind(op), CollectiveKind::AllGather);
        QCOMPARE(collectiveKind("_reduce_scatter_base"), CollectiveKind::ReduceScatter);
        QCOMPARE(collectiveKind("reduce"), CollectiveKind::Reduce);
        QCOMPARE(collectiveKind("hcom_allReduce__210_0_1"), CollectiveKind::AllReduce);
        QCOMPARE(collectiveKind("all_to_allv"), CollectiveKind::AllToAll);
        QCOMPARE(collectiveKind("recv"), CollectiveKind::SendRecv);
        namespace tr = ps::core::trace;
        QCOMPARE(tr::collectiveOpOfKernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"), "allreduce");
        QCOMPARE(
            tr::collectiveOpOfKernel("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
            "reducescatter");
        QCOMPARE(tr::collectiveOpOfKernel(
                     "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"),
                 "sendrecv");
        QCOMPARE(tr::collectiveOpOfKernel("void ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)"), "nccl");
        QVERIFY(tr::collectiveOpOfKernel("ampere_sgemm_128x64_tn").empty());
        QVERIFY(tr::collectiveOpOfKernel("my_ncclKernel_lookalike_in_a_long_name").empty());
        QCOMPARE(dtypeBytes("Float"), std::optional<int>(4));
        QCOMPARE(dtypeBytes("BFloat16"), std::optional<int>(2));
        QCOMPARE(dtypeBytes("float16"), std::optional<int>(2));
        QCOMPARE(dtypeBytes("Long"), std::optional<int>(8));
        QVERIFY(!dtypeBytes("QInt4x2"));
        // nccl-tests' factors (doc/PERFORMANCE.md): n = 8.
        QCOMPARE(*busBandwidthFactor(CollectiveKind::AllReduce, 8), 2.0 * 7 / 8);
        QCOMPARE(*busBandwidthFactor(CollectiveKind::AllGather, 8), 7.0 / 8);
        QCOMPARE(*busBandwidthFactor(CollectiveKind::ReduceScatter, 8), 7.0 / 8);
        QCOMPARE(*busBandwidthFactor(CollectiveKind::AllToAll, 8), 7.0 / 8);
        QCOMPARE(*busBandwidthFactor(CollectiveKind::Broadcast, 8), 1.0);
        QCOMPARE(*busBandwidthFactor(CollectiveKind::SendRecv, 2), 1.0);
        QVERIFY(!busBandwidthFactor(CollectiveKind::Barrier, 8));
    }

    // Kernels known only by their NCCL/RCCL names (nsys without payloads, rocpd): the store holds
    // no record for them (3 bytes an event of every load and cache); collectivesOf makes one per
    // such kernel, with its event, times and stream, once, when collectives are first matched.
    void kernelsKnownByNameGetRecordsWhenAsked()
    {
        namespace tr = ps::core::trace;
        tr::StoreBuilder b;
        const tr::TrackHandle compute = b.track({tr::TrackKind::Kernel, 1, 7, 0});
        const tr::TrackHandle nccl = b.track({tr::TrackKind::Kernel, 1, 20, 0});
        b.add(compute, 0, 50, b.intern("void gemm<float>(float*)"));
        for (int64_t i = 4; i >= 0; --i) // out of order: build() sorts the track
            b.add(nccl, 100 + i * 100, 150 + i * 100,
                  b.intern(i % 2 ? "ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
                                 : "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"));
        b.add(nccl, 700, 750, b.intern("not_a_collective_kernel"));
        const tr::EventStore s = std::move(b).build();
        QVERIFY(s.collectives().empty());
        const std::span<const tr::CollectiveRecord> named = tr::collectivesOf(s);
        QCOMPARE(named.size(), size_t(5));
        for (size_t k = 0; k < named.size(); ++k) {
            const tr::CollectiveRecord &c = named[k];
            const tr::Track &t = s.track(c.event.track);
            QCOMPARE(c.source, tr::CollectiveSource::KernelName);
            QCOMPARE(c.stream, 20u);
            QCOMPARE(c.start, t.start(c.event.index));
            QCOMPARE(c.end, t.end(c.event.index));
            QCOMPARE(c.start, int64_t(100 + k * 100)); // in event order
            QCOMPARE(s.name(c.op), s.name(t.name(c.event.index)));
        }
        QCOMPARE(tr::collectivesOf(s).data(), named.data()); // made once, kept with the store
    }

    void recordsPointAtTheirKernelsAfterSorting()
    {
        // Kernels added out of order (as readers that merge streams do): build() sorts the track
        // and each record must still name its own kernel.
        namespace tr = ps::core::trace;
        tr::StoreBuilder b;
        const tr::TrackHandle h = b.track({tr::TrackKind::Kernel, 1, 20, 0});
        for (int64_t i = 9; i >= 0; --i) {
            b.add(h, i * 100, i * 100 + 50, b.intern("k" + std::to_string(i)));
            if (i % 3 == 0) {
                tr::CollectiveRecord c;
                c.start = i * 100;
                c.end = i * 100 + 50;
                c.seq = i;
                b.addCollective(h, c);
            }
        }
        const tr::EventStore s = std::move(b).build();
        QCOMPARE(s.collectives().size(), size_t(4));
        int64_t previous = -1;
        for (const tr::CollectiveRecord &c : s.collectives()) {
            const tr::Track &t = s.track(c.event.track);
            QCOMPARE(t.start(c.event.index), c.start);
            QCOMPARE(std::string(s.name(t.name(c.event.index))), "k" + std::to_string(c.seq));
            QVERIFY(c.start > previous); // in event order
            previous = c.start;
        }
    }

    void plantedRankIsLastInEveryAffectedStep()
    {
        QTemporaryDir dir;
        SyncLoopWriter(plantedSpec(false)).write(dir.path().toStdString());
        const QJsonObject j = runJson({dir.path()});
        const QJsonArray all = j["collectives"].toArray();
        for (int step = 4; step <= 12; ++step) {
            const QJsonObject o = findInstance(all, "0", step);
            QCOMPARE(o["last_rank"].toInt(), 5);
            // The others waited the planted 25 ms (less their own small spread).
            for (const QJsonValue &m : o["members"].toArray())
                if (m.toObject()["rank"].toInt() != 5)
                    QVERIFY(m.toObject()["wait_ns"].toInteger() > 24'000'000);
        }
        for (int step = 6; step <= 8; ++step)
            QCOMPARE(findInstance(all, "1", step)["last_rank"].toInt(), 2);
        QCOMPARE(findInstance(all, "2", 14)["last_rank"].toInt(), 7);
        // Rank 5 arrived last more often than any other in the world group, and made the most wait.
        for (const QJsonValue &g : j["groups"].toArray())
            if (g.toObject()["group"].toString() == "0")
                QCOMPARE(g.toObject()["most_often_last"].toInt(), 5);
        const QJsonArray ranks = j["ranks"].toArray();
        QCOMPARE(ranks.size(), 8);
        int mostLast = -1;
        int64_t least = INT64_MAX;
        for (const QJsonValue &r : ranks)
            if (r.toObject()["wait_ns"].toInteger() < least) {
                least = r.toObject()["wait_ns"].toInteger();
                mostLast = r.toObject()["rank"].toInt();
            }
        QCOMPARE(mostLast, 5); // the rank that made the others wait waited least
    }

    void eachStepsUpdateActorNamesTheRankThatMadeOthersWait()
    {
        QTemporaryDir dir;
        SyncLoopWriter(plantedSpec(false)).write(dir.path().toStdString());
        const QJsonObject j = runJson({dir.path()});
        std::vector<QJsonObject> rows;
        for (const QJsonValue &v : j["phases"].toArray())
            if (v.toObject()["phase"].toString() == "update_actor")
                rows.push_back(v.toObject());
        QCOMPARE(rows.size(), size_t(16));
        for (int step = 0; step < 16; ++step) {
            const QJsonObject &r = rows[size_t(step)];
            QCOMPARE(r["instances"].toInt(), 3); // the allreduce and two allgathers
            if (step >= 4 && step <= 12) {
                QCOMPARE(r["straggler"].toInt(), 5);
                QVERIFY(r["lag_ns"].toInteger() > 7 * 24'000'000); // seven ranks waited ~25 ms
            } else if (step == 14) {
                QCOMPARE(r["straggler"].toInt(), 7);
            }
        }
    }

    void figuresAgreeWithTheGenerator() { checkAgainstGenerator(false); }
    void figuresAgreeWithTheGeneratorBySequenceNumber() { checkAgainstGenerator(true); }

    void textNamesGroupsAndTheRankMostOftenLast()
    {
        QTemporaryDir dir;
        SyncLoopWriter(plantedSpec(false)).write(dir.path().toStdString());
        const ps::test::CliRun r = ps::test::runCli({"trace", "collectives", "--no-cache", "--top", "3", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("Worst instances by skew"), qPrintable(r.out));
        QVERIFY(
            r.out.contains(QRegularExpression("0 \\(default_pg\\)\\s+kineto-pg-index\\s+16\\s+16.*rank 5 \\(9x\\)")));
        const ps::test::CliRun g = ps::test::runCli(
            {"trace", "collectives", "--no-cache", "--group", "1", "--op", "allgather", "--format", "csv", dir.path()});
        QCOMPARE(g.exitCode, 0);
        QCOMPARE(g.out.count('\n'), 1 + 16 * 4); // header + 16 instances x 4 members
        // The groups table lists the selected instances' groups only.
        const ps::test::CliRun one =
            ps::test::runCli({"trace", "collectives", "--no-cache", "--group", "1", "--top", "0", dir.path()});
        QCOMPARE(one.exitCode, 0);
        QVERIFY2(one.out.startsWith("Collectives: 16 instance(s) in 1 group(s), 16 complete"), qPrintable(one.out));
        QCOMPARE(one.out.count(QStringLiteral("kineto-pg-index")), 1); // the Match column of its one row
        QVERIFY2(!one.out.contains(QStringLiteral("default_pg")), qPrintable(one.out));
    }

    void aMissingMemberMakesItsInstanceIncomplete()
    {
        QTemporaryDir dir;
        SpecWithFewerSteps(dir.path());
        const QJsonObject j = runJson({dir.path()});
        const QJsonObject o = findInstance(j["collectives"].toArray(), "2", 3);
        QVERIFY(!o["complete"].toBool());
        QVERIFY2(o["problem"].toString().contains("missing on rank 6"), qPrintable(o["problem"].toString()));
        QVERIFY(o["last_rank"].isNull());
        bool noted = false;
        for (const QJsonValue &n : j["notes"].toArray())
            noted = noted || (n.toString().contains("group \"2\"") && n.toString().contains("3 on rank 6"));
        QVERIFY2(noted, qPrintable(QJsonDocument(j["notes"].toArray()).toJson()));
    }

    void badInputIsAnError()
    {
        QTemporaryDir dir;
        SyncLoopWriter(plantedSpec(false)).write(dir.path().toStdString());
        QVERIFY(QFile::copy(dir.filePath("rank-3.pt.trace.json"), dir.filePath("copy-of-rank-3.pt.trace.json")));
        // A copy of a rank's report is left out, as every command leaves it out (duplicatereports.h).
        ps::test::CliRun r = ps::test::runCli({"trace", "collectives", "--no-cache", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(dir.filePath("copy-of-rank-3.pt.trace.json") + ": left out, a copy of " +
                                dir.filePath("rank-3.pt.trace.json")),
                 qPrintable(r.err));

        QTemporaryDir other;
        SyncLoopSpec wider = plantedSpec(false);
        wider.ranks = 12;
        SyncLoopWriter(wider).write(other.path().toStdString());
        r = ps::test::runCli({"trace", "collectives", "--no-cache", dir.filePath("rank-0.pt.trace.json"),
                              other.filePath("rank-1.pt.trace.json")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(QRegularExpression("world size (12|8) but .* has (8|12) \\(traces of different runs mixed")),
            qPrintable(r.err));

        // A kernel whose `Group size` contradicts its ranks list.
        QFile f(dir.filePath("rank-0.pt.trace.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        f.close();
        text.replace("\"Group size\": 4", "\"Group size\": 3");
        QTemporaryDir bad;
        QFile out(bad.filePath("rank-0.pt.trace.json"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        r = ps::test::runCli({"trace", "collectives", "--no-cache", bad.path()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("`Group size` 3 but `Process Group Ranks` lists 4 ranks"), qPrintable(r.err));
        QVERIFY(r.err.contains("rank-0.pt.trace.json: allgather kernel at"));
        QVERIFY(r.err.contains("(group \"1\")"));

        // The same against distributedInfo.pg_config when the kernel's list is truncated, and a
        // rank that claims a group it is not in: each named with its file and group.
        const auto rewritten = [&](const QByteArray &from, const QByteArray &to) {
            QByteArray changed = text;
            changed.replace("\"Group size\": 3", "\"Group size\": 4").replace(from, to);
            QFile o(bad.filePath("rank-0.pt.trace.json"));
            if (!o.open(QIODevice::WriteOnly))
                return ps::test::CliRun{};
            o.write(changed);
            o.close();
            return ps::test::runCli({"trace", "collectives", "--no-cache", bad.path()});
        };
        r = rewritten("\"Group size\": 4, \"dtype\": \"Float\", \"In split size\": \"[]\", \"Out split size\": "
                      "\"[]\", \"Process Group Name\": \"1\", \"Process Group Description\": \"undefined\", "
                      "\"Process Group Ranks\": \"[0, 1, 2, 3]\"",
                      "\"Group size\": 3, \"dtype\": \"Float\", \"In split size\": \"[]\", \"Out split size\": "
                      "\"[]\", \"Process Group Name\": \"1\", \"Process Group Description\": \"undefined\", "
                      "\"Process Group Ranks\": \"[0, 1, ...]\"");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("rank-0.pt.trace.json: allgather kernel at") && r.err.contains("(group \"1\")") &&
                     r.err.contains("`Group size` 3 but distributedInfo.pg_config lists 4 ranks"),
                 qPrintable(r.err));
        r = rewritten("\"Process Group Ranks\": \"[0, 1, 2, 3]\"", "\"Process Group Ranks\": \"[4, 5, 6, 7]\"");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("rank-0.pt.trace.json: allgather kernel at") &&
                     r.err.contains("rank 0 is not in its group [4, 5, 6, 7]"),
                 qPrintable(r.err));
        // Breakdown still answers on such input, counting communication as transfer, and says why.
        const ps::test::CliRun b = ps::test::runCli({"trace", "breakdown", "--no-cache", bad.path()});
        QCOMPARE(b.exitCode, 0);
        QVERIFY2(b.err.contains("warning: communication counted as transfer") && b.err.contains("rank-0.pt.trace.json"),
                 qPrintable(b.err));
    }

    void runsAnHourApartAreNotMatched()
    {
        // Ranks 4-7 from the same job an hour later: same world, same groups, nothing overlaps.
        QTemporaryDir a, b;
        SyncLoopSpec later = plantedSpec(false);
        SyncLoopWriter(plantedSpec(false)).write(a.path().toStdString());
        later.originNs += 3600'000'000'000;
        SyncLoopWriter(later).write(b.path().toStdString());
        QStringList files;
        for (int r = 0; r < 8; ++r)
            files << (r < 4 ? a : b).filePath(QStringLiteral("rank-%1.pt.trace.json").arg(r));
        const QJsonObject j = runJson(files);
        size_t worldInstances = 0;
        for (const QJsonValue &v : j["collectives"].toArray()) {
            const QJsonObject o = v.toObject();
            if (o["group"].toString() != "0")
                continue; // the groups of four lie within one run each
            ++worldInstances;
            QVERIFY(!o["complete"].toBool());
            QVERIFY2(o["problem"].toString().contains("members do not overlap in time"),
                     qPrintable(o["problem"].toString()));
        }
        QCOMPARE(worldInstances, size_t(16));
    }

    void sendRecvPairsMatchInOrderNotBySeq()
    {
        // Rank 0 sends to rank 1 twice; PyTorch's P2P Seq counts per rank (0 has 1, 2; 1 has 7, 8),
        // so pairs go by order. A third send names no peer: incomplete, never guessed.
        QTemporaryDir dir;
        auto kernel = [](int64_t ts, const char *op, const char *peerKey, int peer, int seq) {
            std::string peerArg = peer >= 0 ? std::string(", \"") + peerKey + "\": " + std::to_string(peer) : "";
            return "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": "
                   "\"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)\", \"pid\": 0, \"tid\": 20, "
                   "\"ts\": " +
                   std::to_string(ts) + ", \"dur\": 100, \"args\": {\"stream\": 20, \"Collective name\": \"" + op +
                   "\", \"Process Group Name\": \"0\", \"Group size\": 2, \"Process Group Ranks\": \"[0, 1]\", "
                   "\"In msg nelems\": 1024, \"Out msg nelems\": 1024, \"dtype\": \"BFloat16\", \"Seq\": " +
                   std::to_string(seq) + peerArg + "}}";
        };
        auto write = [&](int rank, const std::vector<std::string> &events) {
            QFile f(dir.filePath(QStringLiteral("rank-%1.json").arg(rank)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            std::string text = "{\"distributedInfo\": {\"rank\": " + std::to_string(rank) +
                               ", \"world_size\": 2}, \"baseTimeNanoseconds\": 1764000000000000000, "
                               "\"traceEvents\": [";
            for (size_t i = 0; i < events.size(); ++i)
                text += (i ? ",\n" : "\n") + events[i];
            f.write((text + "]}\n").c_str());
        };
        write(0, {kernel(1000, "send", "Dst Rank", 1, 1), kernel(2000, "send", "Dst Rank", 1, 2),
                  kernel(3000, "send", "", -1, 3)});
        write(1, {kernel(1040, "recv", "Src Rank", 0, 7), kernel(2010, "recv", "Src Rank", 0, 8)});
        const QJsonObject j = runJson({dir.path()});
        const QJsonArray all = j["collectives"].toArray();
        QCOMPARE(all.size(), 3);
        const QJsonObject first = findInstance(all, "0 p2p 0<->1", 0);
        QVERIFY2(first["complete"].toBool(), qPrintable(first["problem"].toString()));
        QCOMPARE(first["match"].toString(), QStringLiteral("kineto-pg-index"));
        QCOMPARE(first["last_rank"].toInt(), 1);
        QCOMPARE(first["skew_ns"].toInteger(), 40'000);
        QCOMPARE(first["busbw_gbps"].toDouble(), 2048.0 / 100'000); // the last rank's kernel time; factor 1
        QVERIFY(findInstance(all, "0 p2p 0<->1", 1)["complete"].toBool());
        const QJsonObject unknown = findInstance(all, "0 p2p", 0);
        QVERIFY(!unknown["complete"].toBool());
        QVERIFY(unknown["problem"].toString().contains("without its peer rank"));
    }

    // An element count no message has (2^62 floats: 16 EiB, which wrapped to a busbw of 1.4e14
    // GB/s) is kept as unknown with a warning naming the count; the instance still matches.
    void impossibleMessageSizeIsUnknown()
    {
        QTemporaryDir dir;
        for (int rank = 0; rank < 2; ++rank) {
            QFile f(dir.filePath(QStringLiteral("rank-%1.json").arg(rank)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                ("{\"distributedInfo\": {\"rank\": " + std::to_string(rank) +
                 ", \"world_size\": 2}, \"baseTimeNanoseconds\": 1764000000000000000, \"traceEvents\": [{\"ph\": "
                 "\"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)\", \"pid\": 0, "
                 "\"tid\": 20, \"ts\": " +
                 std::to_string(1000 + 40 * rank) +
                 ", \"dur\": 100, \"args\": {\"stream\": 20, \"Collective name\": \"allreduce\", \"Process "
                 "Group Name\": \"0\", \"Group size\": 2, \"Process Group Ranks\": \"[0, 1]\", \"In msg nelems\": "
                 "4611686018427387904, \"Out msg nelems\": 4611686018427387904, \"dtype\": \"Float\", \"Seq\": 1}}]}\n")
                    .c_str());
        }
        const ps::test::CliRun r =
            ps::test::runCli({"trace", "collectives", "--no-cache", "--format", "json", dir.path()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("collectives: 1 record(s) give a message of more than 2^50 elements"),
                 qPrintable(r.err));
        const QJsonArray all = QJsonDocument::fromJson(r.out.toUtf8()).object()["collectives"].toArray();
        QCOMPARE(all.size(), 1);
        const QJsonObject inst = all[0].toObject();
        QVERIFY(inst["complete"].toBool());
        QVERIFY2(inst["busbw_gbps"].isNull() && inst["bytes"].isNull(), qPrintable(QJsonDocument(inst).toJson()));
    }

    void htaSampledRanksAreIncompletePerInstance()
    {
        const QJsonObject j = runJson({sample("kineto/hta__trace_filter__sampled_rank-0.json.gz"),
                                       sample("kineto/hta__trace_filter__sampled_rank-1.json.gz")});
        const QJsonArray all = j["collectives"].toArray();
        QCOMPARE(all.size(), 10); // ten SendRecv kernels per rank, on one NCCL stream
        for (const QJsonValue &v : all) {
            const QJsonObject o = v.toObject();
            QCOMPARE(o["op"].toString(), QStringLiteral("sendrecv"));
            QCOMPARE(o["match"].toString(), QStringLiteral("stream-order"));
            QVERIFY(!o["complete"].toBool());
            QVERIFY2(o["problem"].toString().contains("peer is not recorded"), qPrintable(o["problem"].toString()));
            QCOMPARE(o["members"].toArray().size(), 2);
        }
        QVERIFY(j["ranks"].toArray().isEmpty());
        const ps::test::CliRun t = ps::test::runCli({"trace", "collectives", "--no-cache", "--top", "20",
                                                     sample("kineto/hta__trace_filter__sampled_rank-0.json.gz"),
                                                     sample("kineto/hta__trace_filter__sampled_rank-1.json.gz")});
        QCOMPARE(t.exitCode, 0);
        QCOMPARE(t.out.count(QStringLiteral(": point-to-point kernel known by its name only")), 10);
    }

    void ascendPairMatchesItsHcclGroup()
    {
        const QJsonObject j = runJson({sample("ascend/msinsight__level1__rank0__ascend_pytorch_profiler_0.db"),
                                       sample("ascend/msinsight__level1__rank1__ascend_pytorch_profiler_1.db")});
        const QJsonArray all = j["collectives"].toArray();
        QCOMPARE(all.size(), 4); // four hcom_allReduce ops in one group, on both ranks
        for (const QJsonValue &v : all) {
            const QJsonObject o = v.toObject();
            QVERIFY2(o["complete"].toBool(), qPrintable(o["problem"].toString()));
            QCOMPARE(o["group"].toString(), QStringLiteral("90.91.105.46%enp189s0f0_60000_0_1736410538306028"));
            QCOMPARE(o["members"].toArray().size(), 2);
            QCOMPARE(o["match"].toString(), QStringLiteral("hccl-group"));
            QVERIFY(o["bytes"].isNull()); // HCCL's count without a dtype size
        }
        // The first op: rank 0 started at ...431631806, rank 1 at ...435164432 (sqlite3 on the samples).
        const QJsonObject first = findInstance(all, all[0].toObject()["group"].toString().toStdString(), 0);
        QCOMPARE(first["last_rank"].toInt(), 1);
        QCOMPARE(first["skew_ns"].toInteger(), 1736410576435164432 - 1736410576431631806);
        QCOMPARE(first["transfer_ns"].toInteger(), 1736410576520398275 - 1736410576435164432);
    }

    void nsysAndRocpdSamplesSayWhyNoneMatch()
    {
        for (const QString &f : {sample("nsys/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite"),
                                 sample("rocpd/batched_gemm__37ca13315e70__28_results.db")}) {
            const ps::test::CliRun r = ps::test::runCli({"trace", "collectives", "--no-cache", f});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out.contains("0 instance(s)") && r.out.contains("no collective kernels (no NCCL/RCCL kernel"),
                     qPrintable(r.out));
        }
    }

    void recordsSurviveTheCache()
    {
        QTemporaryDir dir, cache;
        SyncLoopWriter(plantedSpec(true)).write(dir.path().toStdString());
        const QStringList args = {"trace", "collectives", "--cache-dir", cache.path(), "--format", "json", dir.path()};
        const ps::test::CliRun cold = ps::test::runCli(args);
        const ps::test::CliRun warm = ps::test::runCli(args);
        QCOMPARE(cold.exitCode, 0);
        QVERIFY(!QDir(cache.path()).entryList(QDir::Files | QDir::NoDotAndDotDot).isEmpty() ||
                !QDir(cache.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());
        QCOMPARE(warm.out, cold.out);
    }

    void summaryOnlyDigestsCarryTheirCollectives()
    {
        QTemporaryDir dir, digests;
        SyncLoopWriter(plantedSpec(true)).write(dir.path().toStdString());
        const ps::test::CliRun d =
            ps::test::runCli({"trace", "digest", "--summary-only", "--out", digests.path(), dir.path()});
        QVERIFY2(d.exitCode == 0, qPrintable(d.err));
        const QJsonObject fromTraces = runJson({dir.path()});
        const QJsonObject fromDigests = runJson({digests.path()});
        QCOMPARE(fromDigests["collectives"].toArray().size(), 48);
        QCOMPARE(fromDigests["collectives"], fromTraces["collectives"]);
        QCOMPARE(fromDigests["groups"], fromTraces["groups"]);
        QCOMPARE(fromDigests["ranks"], fromTraces["ranks"]);
        // Their phase summaries place the collectives in the phases the traces' ranges do.
        QCOMPARE(fromTraces["phases"].toArray().size(), 16); // update_actor in each step
        QCOMPARE(fromDigests["phases"], fromTraces["phases"]);
        // An outline holds no records (its digest's CREC section has them, read when asked for),
        // and knows how many there are.
        const QStringList files = QDir(digests.path()).entryList({"*.psdigest"});
        QVERIFY(!files.isEmpty());
        std::string error;
        const ps::core::trace::ReportPtr outline =
            ps::core::trace::readDigestOutline((digests.path() + "/" + files.front()).toStdString(), error);
        QVERIFY2(outline, error.c_str());
        QVERIFY(!outline->store && outline->layout().collectives().empty());
        const auto records = ps::core::trace::collectiveRecordsOf(*outline, error);
        QVERIFY2(records && !records->records().empty(), error.c_str());
        QCOMPARE(ps::core::trace::collectiveRecordCount(*outline), records->records().size());
    }

    // A damaged CREC section is an error naming the digest and the section, never zero records.
    void damagedCollectiveRecordsAreNamed()
    {
        QTemporaryDir dir, digests;
        SyncLoopWriter(plantedSpec(false)).write(dir.path().toStdString());
        QCOMPARE(ps::test::runCli({"trace", "digest", "--summary-only", "--out", digests.path(), dir.path()}).exitCode,
                 0);
        const QString path = digests.path() + "/" + QDir(digests.path()).entryList({"*.psdigest"}).front();
        QCOMPARE(ps::test::flipSectionByte(path, "CREC", 9), 1);
        const ps::test::CliRun r = ps::test::runCli({"trace", "collectives", "--no-cache", digests.path()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(path) && r.err.contains("CREC"), qPrintable(r.err));
        // Bytes that are no whole number of records are refused with the reason.
        std::string why;
        QVERIFY(!ps::core::trace::decodeCollectiveRecords(std::string(95, '\0'), why));
        QVERIFY2(why.find("95 bytes") != std::string::npos, why.c_str());
    }

    // A digest without its collective records (a writer that made none) is no silent switch to
    // "by work": the phase table says why its stragglers were judged by work time, in the CLI's
    // warning and JSON, and each row says how its straggler was found.
    void digestWithoutRecordsIsSaid()
    {
        QTemporaryDir dir, digests;
        SyncLoopWriter(plantedSpec(false)).write(dir.path().toStdString());
        QCOMPARE(ps::test::runCli({"trace", "digest", "--summary-only", "--out", digests.path(), dir.path()}).exitCode,
                 0);
        const QJsonArray rowsBefore = phasesJson(digests.path())["rows"].toArray();
        QVERIFY(std::any_of(rowsBefore.begin(), rowsBefore.end(),
                            [](const QJsonValue &r) { return r["straggler_by"] == "arrival"; }));
        const QString path = digests.path() + "/" + QDir(digests.path()).entryList({"*.psdigest"}).front();
        QCOMPARE(ps::test::renameSection(path, "CREC", "XREC"), 1);
        const ps::test::CliRun text = ps::test::runCli({"trace", "phases", "--no-cache", digests.path()});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.err.contains("judged by work time") && text.err.contains(path) && text.err.contains("CREC"),
                 qPrintable(text.err));
        // Ranks whose walls the collectives made equal cannot be told apart by work: no straggler.
        QVERIFY2(!text.out.contains(" arrival "), qPrintable(text.out));
        const QJsonObject after = phasesJson(digests.path());
        QVERIFY(after["straggler_notes"].toArray().first().toString().contains(path));
        for (const QJsonValue &r : after["rows"].toArray())
            QVERIFY(r["straggler_by"] != "arrival");
    }

    // One phase table for the desktop and the CLI: on a folder of digests, one of which lost its
    // phase summary, `trace phases` and computePhaseTable over the reports as the Timeline loads
    // them (digests as outlines) give the same columns, leave the damaged one out and say why.
    void mixedFolderHasTheSameColumnsEverywhere()
    {
        QTemporaryDir dir, digests;
        SyncLoopWriter(plantedSpec(false)).write(dir.path().toStdString());
        QCOMPARE(ps::test::runCli({"trace", "digest", "--summary-only", "--out", digests.path(), dir.path()}).exitCode,
                 0);
        const QStringList files = QDir(digests.path()).entryList({"*.psdigest"}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 8);
        const QString damaged = digests.path() + "/" + files[3];
        QCOMPARE(ps::test::renameSection(damaged, "PHAS", "XHAS"), 1);

        const ps::test::CliRun cli =
            ps::test::runCli({"trace", "phases", "--no-cache", "--format", "json", digests.path()});
        QCOMPARE(cli.exitCode, 1);
        QVERIFY2(cli.err.contains("error: ") && cli.err.contains(damaged), qPrintable(cli.err));
        QStringList cliPaths;
        for (const QJsonValue &c : QJsonDocument::fromJson(cli.out.toUtf8()).object()["columns"].toArray())
            cliPaths << c["path"].toString();

        ps::core::trace::LoadOptions options;
        options.digestOutlines = true;
        options.useCache = false;
        const ps::core::trace::LoadResult loaded =
            ps::core::trace::loadReports({digests.path().toStdString()}, options);
        QCOMPARE(loaded.reports.size(), size_t(8));
        const ps::core::analysis::PhaseTable table =
            ps::core::analysis::computePhaseTable(loaded.reports, ps::core::analysis::PhaseMapping::defaults());
        QStringList tablePaths;
        for (const ps::core::analysis::PhaseColumn &c : table.columns)
            tablePaths << QString::fromStdString(loaded.reports[c.report]->path);
        QCOMPARE(tablePaths, cliPaths);
        QCOMPARE(tablePaths.size(), 7);
        QVERIFY(!tablePaths.contains(damaged));
        QCOMPARE(table.problems.size(), size_t(1));
        QCOMPARE(QString::fromStdString(loaded.reports[table.problems[0].first]->path), damaged);
        QVERIFY(table.fromSummaries);
    }

    // The breakdown's communication splits at each instance's last arrival: wait + transfer =
    // communication exactly, and each rank's wait is the generator's sum of its waits.
    void breakdownSplitsCommunicationAtTheLastArrival()
    {
        QTemporaryDir dir;
        const std::map<int, int64_t> expected =
            waitsPerRank(SyncLoopWriter(plantedSpec(false)).write(dir.path().toStdString()));
        const QJsonArray reports = breakdownJson({dir.path()});
        QCOMPARE(reports.size(), 8);
        std::map<int, int64_t> measured;
        for (const QJsonValue &v : reports) {
            const QJsonObject o = v.toObject();
            const int rank = o["rank"].toInt();
            const int64_t comm = o["communication_ns"].toInteger(), wait = o["communication_wait_ns"].toInteger();
            measured[rank] = wait;
            QCOMPARE(wait + o["communication_transfer_ns"].toInteger(), comm);
            QVERIFY2(std::llabs(wait - expected.at(rank)) <= 1000,
                     qPrintable(
                         QStringLiteral("rank %1: wait %2, generator %3").arg(rank).arg(wait).arg(expected.at(rank))));
            // Given alone, a rank's collectives match nothing: all transfer, communication unchanged.
            const QJsonObject alone = breakdownJson({o["path"].toString()}).first().toObject();
            QCOMPARE(alone["communication_ns"].toInteger(), comm);
            QCOMPARE(alone["communication_wait_ns"].toInteger(), 0);
            QCOMPARE(alone["communication_transfer_ns"].toInteger(), comm);
        }
        // Rank 5, late in steps 4-12, hardly waits; the others wait at least its 9 x 25 ms.
        for (const auto &[rank, wait] : measured)
            if (rank != 5)
                QVERIFY2(
                    wait > 9 * 25'000'000 && measured.at(5) < 10'000'000,
                    qPrintable(QStringLiteral("rank %1 waited %2, rank 5 %3").arg(rank).arg(wait).arg(measured.at(5))));
        const ps::test::CliRun csv =
            ps::test::runCli({"trace", "breakdown", "--no-cache", "--format", "csv", dir.path()});
        QVERIFY(csv.out.startsWith("path,rank,device,stream,events,span_ns,idle_ns,compute_ns,communication_ns,"
                                   "memory_ns,other_ns,overlap_pct,communication_wait_ns,communication_transfer_ns\n"));
        const ps::test::CliRun text = ps::test::runCli({"trace", "breakdown", "--no-cache", dir.path()});
        QVERIFY(text.out.contains("    wait        ") && text.out.contains("    transfer    "));
        // Per step and per stream the split adds up too, and the steps' waits make the report's.
        int64_t stepWaits = 0;
        for (const QJsonValue &v : breakdownJson({"--by", "step", dir.path()})) {
            const QJsonObject o = v.toObject();
            QCOMPARE(o["communication_wait_ns"].toInteger() + o["communication_transfer_ns"].toInteger(),
                     o["communication_ns"].toInteger());
            if (o["rank"].toInt() == 1)
                stepWaits += o["communication_wait_ns"].toInteger();
        }
        QVERIFY(std::llabs(stepWaits - expected.at(1)) <= 1000);
    }

    // trace compare reads the split from digests: summary-only digests give the reports' figures.
    void digestsSplitCommunicationAsTheirReports()
    {
        QTemporaryDir dir, digests;
        const std::map<int, int64_t> expected =
            waitsPerRank(SyncLoopWriter(plantedSpec(true)).write(dir.path().toStdString()));
        const ps::test::CliRun d =
            ps::test::runCli({"trace", "digest", "--summary-only", "--out", digests.path(), dir.path()});
        QVERIFY2(d.exitCode == 0, qPrintable(d.err));
        const ps::test::CliRun c =
            ps::test::runCli({"trace", "compare", "--no-cache", "--format", "json", dir.path(), digests.path()});
        QVERIFY2(c.exitCode == 0 && !c.err.contains("communication") && !c.err.contains("COLL"), qPrintable(c.err));
        int64_t total = 0;
        for (const auto &[rank, wait] : expected)
            total += wait;
        std::map<QString, QJsonObject> breakdown;
        for (const QJsonValue &v : QJsonDocument::fromJson(c.out.toUtf8()).object()["deltas"].toArray())
            if (v.toObject()["kind"].toString() == "breakdown")
                breakdown[v.toObject()["name"].toString()] = v.toObject();
        for (const char *name : {"communication", "communication wait", "communication transfer"}) {
            QVERIFY2(breakdown.count(name), name);
            QCOMPARE(breakdown[name]["candidate_ns"].toInteger(), breakdown[name]["baseline_ns"].toInteger());
        }
        QVERIFY(std::llabs(breakdown["communication wait"]["baseline_ns"].toInteger() - total) <= 1000);
        QCOMPARE(breakdown["communication wait"]["baseline_ns"].toInteger() +
                     breakdown["communication transfer"]["baseline_ns"].toInteger(),
                 breakdown["communication"]["baseline_ns"].toInteger());
    }

    // --group and --op select the instances, and JSON's groups and ranks total only those.
    void jsonGroupsAndRanksHonourTheFilters()
    {
        QTemporaryDir dir;
        SyncLoopWriter(plantedSpec(false)).write(dir.path().toStdString());
        const QJsonObject all = runJson({dir.path()});
        QCOMPARE(all["groups"].toArray().size(), 3);
        const QJsonObject one = runJson({"--group", "1", dir.path()});
        QCOMPARE(one["collectives"].toArray().size(), 16);
        QCOMPARE(one["groups"].toArray().size(), 1);
        const QJsonObject g = one["groups"].toArray().first().toObject();
        QCOMPARE(g["group"].toString(), QStringLiteral("1"));
        QCOMPARE(g["instances"].toInt(), 16);
        for (const QJsonValue &v : all["groups"].toArray())
            if (v.toObject()["group"].toString() == "1")
                QCOMPARE(v.toObject(), g); // the same group, the same totals
        QCOMPARE(one["ranks"].toArray().size(), 4);
        for (const QJsonValue &v : one["ranks"].toArray())
            QVERIFY(v.toObject()["rank"].toInt() < 4);
        const QJsonObject gathers = runJson({"--op", "allgather", dir.path()});
        QCOMPARE(gathers["collectives"].toArray().size(), 32);
        QStringList names;
        for (const QJsonValue &v : gathers["groups"].toArray())
            names << v.toObject()["group"].toString();
        QCOMPARE(names, QStringList({"1", "2"}));
        // Rank 5's late allreduces are not allgathers: it made nobody wait there.
        for (const QJsonValue &v : gathers["ranks"].toArray())
            QCOMPARE(v.toObject()["collectives"].toInt(), 16);
        const QJsonObject none = runJson({"--group", "nope", dir.path()});
        QVERIFY(none["collectives"].toArray().isEmpty() && none["groups"].toArray().isEmpty() &&
                none["ranks"].toArray().isEmpty());
    }

private:
    static QJsonArray breakdownJson(const QStringList &args)
    {
        const ps::test::CliRun r =
            ps::test::runCli(QStringList{"trace", "breakdown", "--no-cache", "--format", "json"} + args);
        if (r.exitCode != 0)
            qWarning("exit %d: %s", r.exitCode, qPrintable(r.err));
        return QJsonDocument::fromJson(r.out.toUtf8()).object()["reports"].toArray();
    }
    static std::map<int, int64_t> waitsPerRank(const std::vector<ExpectedInstance> &expected)
    {
        std::map<int, int64_t> out;
        for (const ExpectedInstance &e : expected)
            for (const auto &[rank, wait] : e.waitNs)
                out[rank] += wait;
        return out;
    }

    // Rank 6 stopped profiling one step early: its group's last allgather and the world's last
    // allreduce lack it.
    static void SpecWithFewerSteps(const QString &path)
    {
        SyncLoopSpec s = plantedSpec(false);
        s.steps = 4;
        SyncLoopWriter(s).write(path.toStdString());
        QTemporaryDir shorter;
        s.steps = 3;
        SyncLoopWriter(s).write(shorter.path().toStdString());
        QFile::remove(path + "/rank-6.pt.trace.json");
        QVERIFY(QFile::copy(shorter.filePath("rank-6.pt.trace.json"), path + "/rank-6.pt.trace.json"));
    }
};

QTEST_GUILESS_MAIN(TestCollectives)
#include "tst_collectives.moc"
