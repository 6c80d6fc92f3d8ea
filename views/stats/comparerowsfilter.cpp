#include "views/stats/comparerowsfilter.h"

namespace ps::views {

CompareRowsFilter::CompareRowsFilter(int changedRole, int nameColumn, QObject *parent)
    : QSortFilterProxyModel(parent), m_changedRole(changedRole), m_nameColumn(nameColumn)
{
    setSortRole(Qt::UserRole);
}

void CompareRowsFilter::setShowUnchanged(bool on)
{
    if (on == m_showUnchanged)
        return;
    m_showUnchanged = on;
    invalidateFilter();
}

void CompareRowsFilter::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

bool CompareRowsFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex kind = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_showUnchanged && !kind.data(m_changedRole).toBool())
        return false;
    if (m_text.isEmpty())
        return true;
    const QString name = sourceModel()->index(sourceRow, m_nameColumn, sourceParent).data().toString();
    return name.contains(m_text, Qt::CaseInsensitive) || kind.data().toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace ps::views
