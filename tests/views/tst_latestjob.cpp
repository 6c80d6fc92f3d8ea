// LatestJob (views/common/latestjob.h): only the newest job's result is delivered, a superseded
// job sees its CancelToken set, cancel() drops the result, and runAfterCurrent coalesces a burst
// of requests into one follow-up job built from the newest state.
#include "tests/support/jobgate.h"
#include "views/common/latestjob.h"

#include <QSignalSpy>
#include <QtTest>

#include <atomic>
#include <thread>

using ps::views::CancelToken;
using ps::views::LatestJob;
using ps::views::LatestJobBase;

using Gate = ps::test::JobGate;

class TestLatestJob : public QObject
{
    Q_OBJECT
private slots:
    void onlyTheNewestResultIsDelivered()
    {
        QObject owner;
        QList<int> delivered;
        LatestJob<int> job(&owner, [&](int v) { delivered << v; });
        auto gate = std::make_shared<Gate>();
        std::atomic<bool> firstSawCancel{false};
        job.run([gate, &firstSawCancel](const CancelToken &c) {
            gate->wait();
            firstSawCancel = c.cancelled();
            return 1;
        });
        job.run([gate](const CancelToken &) {
            gate->wait();
            return 2;
        });
        QVERIFY(job.isBusy());
        gate->open = true;
        QTRY_VERIFY(!job.isBusy());
        QCOMPARE(delivered, QList<int>{2});
        QVERIFY(firstSawCancel);
    }

    void cancelDropsTheResult()
    {
        QObject owner;
        QList<int> delivered;
        LatestJob<int> job(&owner, [&](int v) { delivered << v; });
        QSignalSpy busy(&job, &LatestJobBase::busyChanged);
        auto gate = std::make_shared<Gate>();
        job.run([gate](const CancelToken &) {
            gate->wait();
            return 7;
        });
        job.cancel();
        gate->open = true;
        QTRY_VERIFY(!job.isBusy());
        QVERIFY(delivered.isEmpty());
        QCOMPARE(busy.count(), 2); // true, then false
        QCOMPARE(busy.last().at(0).toBool(), false);
    }

    void runAfterCurrentCoalesces()
    {
        QObject owner;
        QList<int> delivered, seen;
        LatestJob<int> job(&owner, [&](int v) { delivered << v; });
        job.setSeen([&](const int &v) { seen << v; });
        auto gate = std::make_shared<Gate>();
        int state = 0;
        int built = 0;
        const auto request = [&] {
            ++state;
            job.runAfterCurrent([&, gate]() -> LatestJob<int>::Work {
                ++built;
                return [gate, v = state](const CancelToken &) {
                    gate->wait();
                    return v;
                };
            });
        };
        for (int i = 0; i < 5; ++i)
            request();
        QVERIFY(job.isBusy());
        gate->open = true;
        QTRY_VERIFY(!job.isBusy());
        QCOMPARE(built, 2);                 // the first request, then one with the newest state
        QCOMPARE(delivered, QList<int>{5}); // the stale first result is not delivered...
        QCOMPARE(seen, (QList<int>{1, 5})); // ...but every result is seen
    }
};

QTEST_MAIN(TestLatestJob)
#include "tst_latestjob.moc"
