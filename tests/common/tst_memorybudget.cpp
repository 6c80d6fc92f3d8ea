// The process-wide inflation budget (core/common/memorybudget.h, #37): N loading threads do not
// multiply one file's allowance. Leases wait until they fit, one larger than the budget waits
// until it is alone, and a thread holding a lease is never made to wait for itself. Then the
// real digest reader on several threads: every digest loads through the budget, even one far
// smaller than each digest's events.

#include "core/common/memorybudget.h"
#include "core/trace/read/traceloader.h"
#include "tests/support/clirun.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using ps::core::MemoryBudget;

namespace {

// `threads` threads each lease `bytes` of `budget` and hold it a while; returns the peak and
// how many held a lease at once at most.
std::pair<uint64_t, int> holdConcurrently(MemoryBudget &budget, int threads, uint64_t bytes)
{
    std::atomic<int> holding{0}, most{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&] {
            const MemoryBudget::Lease lease = budget.lease(bytes);
            const int now = ++holding;
            for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(30));
            --holding;
        });
    for (std::thread &t : pool)
        t.join();
    return {budget.peakLeased(), most.load()};
}

} // namespace

class TestMemoryBudget : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // Read once, at first use: smaller than any digest's events below.
        qputenv("PROFSTUDIO_INFLATE_BUDGET_MB", "1");
    }

    void leasesWaitUntilTheyFit()
    {
        MemoryBudget budget(1000);
        const auto [peak, most] = holdConcurrently(budget, 6, 400);
        QCOMPARE(peak, uint64_t(800)); // two at a time: a third would pass 1000
        QCOMPARE(most, 2);
    }

    void overBudgetRunsAlone()
    {
        MemoryBudget budget(1000);
        const auto [peak, most] = holdConcurrently(budget, 4, 1500);
        QCOMPARE(peak, uint64_t(1500));
        QCOMPARE(most, 1);
    }

    void aHolderIsNotMadeToWaitForItself()
    {
        MemoryBudget budget(1000);
        const MemoryBudget::Lease outer = budget.lease(900);
        const MemoryBudget::Lease inner = budget.lease(900); // would wait forever if it waited
        QCOMPARE(budget.peakLeased(), uint64_t(1800));
    }

    void digestsLoadThroughTheBudget()
    {
        QTemporaryDir dir;
        const ps::test::CliRun demo = ps::test::runCli(
            {"demo", "--out", dir.path(), "--ranks", "8", "--steps", "2", "--events-per-report", "60000", "--digests"});
        QVERIFY2(demo.exitCode == 0, qPrintable(demo.err));
        ps::core::trace::LoadOptions o;
        o.useCache = false;
        o.threads = 4;
        const ps::core::trace::LoadResult r =
            ps::core::trace::loadReports({dir.filePath("profiling").toStdString()}, o);
        QCOMPARE(r.reports.size(), size_t(8));
        QVERIFY(r.failures.empty());
        MemoryBudget &budget = MemoryBudget::inflation();
        QCOMPARE(budget.budget(), uint64_t(1) << 20);
        // Each digest's events are larger than the budget, so each was inflated alone: the peak
        // is one digest's (with the sections it inflated meanwhile), never eight of them.
        QVERIFY(budget.peakLeased() > budget.budget());
        for (const auto &report : r.reports)
            QVERIFY(report->store && report->store->eventCount() > 0);
    }
};

QTEST_GUILESS_MAIN(TestMemoryBudget)
#include "tst_memorybudget.moc"
