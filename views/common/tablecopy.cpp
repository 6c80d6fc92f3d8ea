#include "views/common/tablecopy.h"

#include "core/common/csvfield.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QItemSelectionModel>
#include <QMap>

#include <algorithm>

namespace ps::views {

namespace {

QString cell(QString text, CellFormat format)
{
    if (format == CellFormat::Tsv) // a tab or line break in a cell would split it
        return text.replace(QLatin1Char('\t'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
    return QString::fromStdString(core::csvField(text.toStdString()));
}

} // namespace

QString selectedCellsText(const QAbstractItemView *view, CellFormat format)
{
    if (!view->selectionModel())
        return {};
    QModelIndexList cells = view->selectionModel()->selectedIndexes();
    if (cells.isEmpty())
        return {};
    // Sorted by row, then column: the order the user sees.
    QMap<int, QMap<int, QString>> rows;
    int firstColumn = cells.front().column(), lastColumn = firstColumn;
    for (const QModelIndex &i : std::as_const(cells)) {
        rows[i.row()][i.column()] = i.data(Qt::DisplayRole).toString();
        firstColumn = std::min(firstColumn, i.column());
        lastColumn = std::max(lastColumn, i.column());
    }
    const QChar sep = format == CellFormat::Tsv ? QLatin1Char('\t') : QLatin1Char(',');
    QStringList lines;
    for (const QMap<int, QString> &row : std::as_const(rows)) {
        QStringList fields;
        for (int c = firstColumn; c <= lastColumn; ++c)
            fields << cell(row.value(c), format);
        lines << fields.join(sep);
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void installTableCopy(QAbstractItemView *view)
{
    auto *copy = new QAction(QStringLiteral("Copy"), view);
    copy->setObjectName(QStringLiteral("copyCells"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    auto *csv = new QAction(QStringLiteral("Copy as CSV"), view);
    csv->setObjectName(QStringLiteral("copyCellsCsv"));
    QObject::connect(copy, &QAction::triggered, view,
                     [view] { QApplication::clipboard()->setText(selectedCellsText(view, CellFormat::Tsv)); });
    QObject::connect(csv, &QAction::triggered, view,
                     [view] { QApplication::clipboard()->setText(selectedCellsText(view, CellFormat::Csv)); });
    view->addAction(copy);
    view->addAction(csv);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace ps::views
