#pragma once
// What the Compare Runs table shows of its deltas: the changes only (rows whose Kind item says
// so), or all of them, and of those the rows whose kind or name contains the filter text
// (case-insensitive). Sorting is the proxy's own, by each column's Qt::UserRole value.

#include <QSortFilterProxyModel>

namespace ps::views {

class CompareRowsFilter : public QSortFilterProxyModel
{
public:
    // `changedRole` on column 0 is true for a row that moved beyond the tolerance; `nameColumn`
    // holds the name the text filter matches (with column 0's kind).
    CompareRowsFilter(int changedRole, int nameColumn, QObject *parent);

    void setShowUnchanged(bool on);
    void setText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    int m_changedRole;
    int m_nameColumn;
    bool m_showUnchanged = false;
    QString m_text;
};

} // namespace ps::views
