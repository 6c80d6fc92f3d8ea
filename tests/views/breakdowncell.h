#pragma once
// The Breakdown tab's figures as its model holds them, by column header, for the tests that
// compare them with `profstudio-cli trace breakdown`.

#include "views/stats/breakdownmodel.h"
#include "views/stats/breakdownpane.h"
#include "views/timeline/timelineworkspace.h"

#include <QString>
#include <QTabWidget>
#include <QtGlobal>

namespace ps::test {

// The value of the column headed `header` in source row `row` (fails the test run when the model
// has no such column).
inline double breakdownCell(const ps::views::BreakdownModel &m, int row, const QString &header)
{
    for (int c = 0; c < m.columnCount(); ++c)
        if (m.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == header)
            return m.data(m.index(row, c), Qt::UserRole).toDouble();
    qFatal("no column %s", qPrintable(header));
}

// Brings the Breakdown tab to the front, as a user opens it: a hidden one computes nothing.
inline void showBreakdownTab(ps::views::TimelineWorkspace &w)
{
    w.findChild<QTabWidget *>()->setCurrentWidget(w.breakdownPane());
}

} // namespace ps::test
