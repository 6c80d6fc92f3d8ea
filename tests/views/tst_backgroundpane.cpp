// BackgroundPane (views/common/backgroundpane.h): whenShown starts a pane's work at once when the
// pane is seen, else when it is next shown; new inputs drop what runs or waits for the old ones,
// so a hidden tab never shows the previous run's figures under the new run's names.
#include "tests/support/jobgate.h"
#include "views/common/backgroundpane.h"

#include <QtTest>

#include <memory>

using ps::test::JobGate;
using ps::views::BackgroundPane;
using ps::views::CancelToken;
using ps::views::LatestJob;

namespace {

// A pane whose work for an input waits at a gate, then returns the input.
class GatedPane : public BackgroundPane
{
public:
    GatedPane()
    {
        m_job = addJob<int>([this](int input) { delivered << input; });
    }
    void compute(int input, std::shared_ptr<JobGate> gate)
    {
        whenShown([this, input, gate] {
            m_job->run([input, gate](const CancelToken &) {
                gate->wait();
                return input;
            });
        });
    }
    using BackgroundPane::cancelJobs;
    QList<int> delivered;

private:
    LatestJob<int> *m_job = nullptr;
};

std::shared_ptr<JobGate> openGate()
{
    auto gate = std::make_shared<JobGate>();
    gate->open = true;
    return gate;
}

} // namespace

class TestBackgroundPane : public QObject
{
    Q_OBJECT
private slots:
    void hiddenPaneStartsWhenShown()
    {
        GatedPane pane;
        pane.compute(1, openGate());
        QVERIFY(!pane.isBusy()); // nobody looks: nothing runs
        QTest::qWait(20);
        QVERIFY(pane.delivered.isEmpty());
        pane.show();
        QTRY_COMPARE(pane.delivered, QList<int>{1});
    }

    // Input 1 is computing when the pane is hidden and input 2 arrives: 1's result is dropped,
    // and 2 is computed once the pane is shown again.
    void newInputWhileHiddenDropsTheRunningJob()
    {
        GatedPane pane;
        pane.show();
        auto first = std::make_shared<JobGate>();
        pane.compute(1, first);
        QVERIFY(pane.isBusy());
        pane.hide();
        pane.compute(2, openGate());
        first->open = true;
        QTRY_VERIFY(!pane.isBusy());
        QTest::qWait(20);
        QVERIFY2(pane.delivered.isEmpty(), "the old input's result reached a hidden pane");
        pane.show();
        QTRY_COMPARE(pane.delivered, QList<int>{2});
    }

    void cancelJobsForgetsAWaitingStart()
    {
        GatedPane pane;
        pane.compute(1, openGate());
        pane.cancelJobs();
        pane.show();
        QTest::qWait(20);
        QVERIFY(!pane.isBusy());
        QVERIFY(pane.delivered.isEmpty());
    }
};

QTEST_MAIN(TestBackgroundPane)
#include "tst_backgroundpane.moc"
