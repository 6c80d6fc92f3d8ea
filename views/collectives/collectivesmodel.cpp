#include "views/collectives/collectivesmodel.h"

#include "views/scene/timeformat.h"

#include <QLocale>

#include <algorithm>

namespace ps::views {

namespace an = ps::core::analysis;

namespace {

// The strip's text: the longest wait and whose, so a copied row says what the strip shows.
QString stripText(const an::CollectiveInstance &inst)
{
    if (!inst.complete || inst.members.empty())
        return QString::fromStdString(inst.problem);
    const auto longest = std::max_element(inst.members.begin(), inst.members.end(),
                                          [](const auto &a, const auto &b) { return a.waitNs < b.waitNs; });
    return QStringLiteral("longest wait %1 (rank %2)").arg(formatDuration(longest->waitNs)).arg(longest->rank);
}

} // namespace

void CollectivesModel::setView(CollectiveViewPtr view)
{
    beginResetModel();
    m_view = std::move(view);
    endResetModel();
}

int CollectivesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_view ? 0 : int(m_view->analysis.instances.size());
}

int CollectivesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CollectivesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static const char *const names[ColumnCount] = {"Group",     "Op",    "#",           "Ranks",
                                                   "Last rank", "Skew",  "Median wait", "Total wait",
                                                   "Transfer",  "Bytes", "busbw",       "Wait by rank"};
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole)
        return QString::fromLatin1(names[section]);
    if (role == Qt::ToolTipRole && section == WaitStrip)
        return QStringLiteral("Each member's wait, by rank (full height: the instance's skew); red: the last rank");
    if (role == Qt::ToolTipRole && section == Busbw)
        return busbwMissingWhy();
    if (role == Qt::ToolTipRole && section == TotalWait)
        return QStringLiteral("The members' waits added up: every rank's time from its arrival to the last one's");
    if (role == Qt::ToolTipRole && section == Transfer)
        return QStringLiteral("From the last arrival to the end of the collective: the data moving, nobody waiting");
    if (role == Qt::ToolTipRole && section == MedianWait)
        return QStringLiteral("The median of the other members' waits (last arrival - own arrival)");
    return {};
}

QVariant CollectivesModel::data(const QModelIndex &index, int role) const
{
    if (!m_view || !index.isValid() || index.row() >= rowCount())
        return {};
    const an::CollectiveInstance &inst = m_view->analysis.instances[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(inst, index.column());
    case kSortRole:
        return sortValue(inst, index.column());
    case kInstanceRole:
        return index.row();
    case Qt::ToolTipRole:
        return instanceTitle(inst) + QLatin1Char('\n') + instanceSummary(inst);
    case Qt::TextAlignmentRole:
        return index.column() >= Index && index.column() <= Busbw ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                  : QVariant();
    default:
        return {};
    }
}

QVariant CollectivesModel::display(const an::CollectiveInstance &inst, int column) const
{
    const size_t i = size_t(&inst - m_view->analysis.instances.data());
    const bool c = inst.complete;
    switch (column) {
    case Group:
        return QString::fromStdString(inst.group);
    case Op:
        return QString::fromStdString(inst.op);
    case Index:
        return qlonglong(inst.index);
    case Ranks:
        return QStringLiteral("%1/%2")
            .arg(inst.members.size())
            .arg(inst.groupSize >= 0 ? inst.groupSize : int(inst.members.size()));
    case LastRank:
        return c ? QString::number(inst.lastRank) : QStringLiteral("incomplete");
    case Skew:
        return c ? formatDuration(inst.skewNs) : QString();
    case MedianWait:
        return c ? formatDuration(m_view->medianWait[i]) : QString();
    case TotalWait:
        return c ? formatDuration(m_view->totalWait[i]) : QString();
    case Transfer:
        return c ? formatDuration(inst.transferNs) : QString();
    case Bytes:
        return inst.bytes ? QLocale::c().formattedDataSize(qint64(*inst.bytes)) : QStringLiteral("-");
    case Busbw:
        return bandwidthText(inst.busbwGBps);
    case WaitStrip:
        return stripText(inst);
    default:
        return {};
    }
}

QVariant CollectivesModel::sortValue(const an::CollectiveInstance &inst, int column) const
{
    const size_t i = size_t(&inst - m_view->analysis.instances.data());
    const bool c = inst.complete;
    switch (column) {
    case Index:
        return qlonglong(inst.index);
    case Ranks:
        return qlonglong(inst.members.size());
    case LastRank:
        return c ? inst.lastRank : -1;
    case Skew:
        return qlonglong(c ? inst.skewNs : -1);
    case MedianWait:
        return qlonglong(c ? m_view->medianWait[i] : -1);
    case TotalWait:
    case WaitStrip:
        return qlonglong(c ? m_view->totalWait[i] : -1);
    case Transfer:
        return qlonglong(c ? inst.transferNs : -1);
    case Bytes:
        return qlonglong(inst.bytes.value_or(0));
    case Busbw:
        return inst.busbwGBps.value_or(-1.0);
    default:
        return display(inst, column);
    }
}

} // namespace ps::views
