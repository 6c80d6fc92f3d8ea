#pragma once
// Waiting for a workspace's (or a document's) background work in GUI tests.

#include "views/common/workspace.h"

#include <QElapsedTimer>
#include <QtTest>

namespace ps::test {

// Waits for the background work of a workspace (or a timeline document) to end; debounced work
// starts at once rather than after its delay, as in headless screenshots.
template <typename Busy> bool waitIdle(Busy &w, int ms = 60000)
{
    QElapsedTimer t;
    t.start();
    while (w.isBusy() && t.elapsed() < ms) {
        w.flushDeferred();
        QTest::qWait(2);
    }
    return !w.isBusy();
}

} // namespace ps::test
