// torch.profiler.schedule arithmetic (core/configedit/profilerschedule.h), checked against the
// phases PyTorch's schedule_fn gives and the seeds' worked example (decode steps 30-60).
#include "core/configedit/profilerschedule.h"

#include <QtTest>

using namespace ps::core::configedit;

namespace {
// One letter per step: S skip_first, W wait, U warm-up, R record, D done.
QString phases(const ProfilerSchedule &s, int steps)
{
    QString out;
    for (int i = 0; i < steps; ++i) {
        switch (phaseAt(s, i)) {
        case StepPhase::SkipFirst:
            out += 'S';
            break;
        case StepPhase::Wait:
            out += 'W';
            break;
        case StepPhase::Warmup:
            out += 'U';
            break;
        case StepPhase::Record:
            out += 'R';
            break;
        case StepPhase::Done:
            out += 'D';
            break;
        }
    }
    return out;
}
} // namespace

class TestProfilerSchedule : public QObject
{
    Q_OBJECT
private slots:
    void phases_data()
    {
        QTest::addColumn<int>("wait");
        QTest::addColumn<int>("warmup");
        QTest::addColumn<int>("active");
        QTest::addColumn<int>("repeat");
        QTest::addColumn<int>("skipFirst");
        QTest::addColumn<QString>("expected");
        // seeds/004: schedule(wait=1, warmup=1, active=3, repeat=1)
        QTest::newRow("seed 004") << 1 << 1 << 3 << 1 << 0 << "WURRRDDD";
        QTest::newRow("repeat 2") << 1 << 1 << 2 << 2 << 0 << "WURRWURRDD";
        QTest::newRow("skip_first") << 0 << 1 << 1 << 1 << 3 << "SSSURDD";
        QTest::newRow("forever") << 1 << 0 << 1 << 0 << 0 << "WRWRWRWR";
    }
    void phases()
    {
        QFETCH(int, wait);
        QFETCH(int, warmup);
        QFETCH(int, active);
        QFETCH(int, repeat);
        QFETCH(int, skipFirst);
        QFETCH(QString, expected);
        QCOMPARE(::phases({wait, warmup, active, repeat, skipFirst}, expected.size()), expected);
    }

    void decodeSteps30to60()
    {
        // seeds/002: "record decode steps 30-60" -> schedule(wait=29, warmup=1, active=30, repeat=1)
        const ScheduleForRange r = scheduleForRange(30, 60, 1);
        QVERIFY(r.error.empty());
        QCOMPARE(r.schedule, (ProfilerSchedule{29, 1, 30, 1, 0}));
        QCOMPARE(scheduleCall(r.schedule, ScheduleApi::TorchNpu),
                 std::string("torch_npu.profiler.schedule(wait=29, warmup=1, active=30, repeat=1)"));
        QCOMPARE(phaseAt(r.schedule, 28), StepPhase::Wait);
        QCOMPARE(phaseAt(r.schedule, 29), StepPhase::Warmup);
        QCOMPARE(phaseAt(r.schedule, 30), StepPhase::Record);
        QCOMPARE(phaseAt(r.schedule, 59), StepPhase::Record);
        QCOMPARE(phaseAt(r.schedule, 60), StepPhase::Done);
    }

    void rangeErrors()
    {
        QVERIFY(!scheduleForRange(5, 5, 1).error.empty());
        QVERIFY(!scheduleForRange(0, 3, 1).error.empty()); // no room for the warm-up step
        QCOMPARE(scheduleForRange(12, 15, 1, 10).schedule, (ProfilerSchedule{1, 1, 3, 1, 10}));
    }

    void callsAndProblems()
    {
        QCOMPARE(scheduleCall({1, 1, 3, 1, 0}, ScheduleApi::Torch),
                 std::string("torch.profiler.schedule(wait=1, warmup=1, active=3, repeat=1)"));
        QCOMPARE(scheduleCall({0, 1, 3, 2, 10}, ScheduleApi::Torch),
                 std::string("torch.profiler.schedule(wait=0, warmup=1, active=3, repeat=2, skip_first=10)"));
        QCOMPARE(traceHandlerCall(ScheduleApi::Torch, "./log's"),
                 std::string("torch.profiler.tensorboard_trace_handler('./log\\'s')"));
        QCOMPARE(traceHandlerOutput(ScheduleApi::Torch, "/d"),
                 std::string("/d/<hostname>_<pid>.<time_ms>.pt.trace.json"));
        QVERIFY(scheduleProblems({1, 1, 3, 1, 0}).empty());
        QCOMPARE(scheduleProblems({1, 0, 3, 1, 0}).size(), size_t(1)); // no warm-up: PyTorch warns
        QVERIFY(!scheduleProblems({1, 1, 0, 1, 0}).empty());
    }
};

QTEST_GUILESS_MAIN(TestProfilerSchedule)
#include "tst_profilerschedule.moc"
