#pragma once
// The Breakdown tab's figures as its model holds them, by column header, for the tests that
// compare them with `profstudio-cli trace breakdown`.

#include "views/stats/breakdownmodel.h"

#include <QString>
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

} // namespace ps::test
