#pragma once
// Copy for the statistics, phase and compare tables: Ctrl+C and the context menu's Copy put the
// selected cells on the clipboard as tab-separated text (what spreadsheets paste), and "Copy as
// CSV" as RFC 4180 CSV. Rows and columns keep the view's order; a gap in the selection is an
// empty cell.

#include <QString>

class QAbstractItemView;

namespace ps::views {

enum class CellFormat { Tsv, Csv };

// The selected cells of `view` (display text), one line per row.
QString selectedCellsText(const QAbstractItemView *view, CellFormat format);

// Adds Copy (Ctrl+C, while the view has focus) and Copy as CSV to the view's context menu.
void installTableCopy(QAbstractItemView *view);

} // namespace ps::views
