#include "app/cli/texttable.h"

#include "core/common/terminaltext.h"

#include "core/common/decimalround.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace ps::cli {

namespace {

// Thousands separators in the integer part of a formatted number.
std::string withSeparators(std::string digits)
{
    const size_t sign = digits[0] == '-' ? 1 : 0;
    const size_t point = std::min(digits.find('.'), digits.size());
    for (size_t i = point; i > sign + 3; i -= 3)
        digits.insert(i - 3, 1, ',');
    return digits;
}

} // namespace

std::string groupedNumber(long double v, int decimals)
{
    if (decimals > 0)
        return withSeparators(core::fixedHalfAwayFromZero(double(v), decimals));
    std::ostringstream f;
    f << std::fixed << std::setprecision(0) << v; // integers: exact in long double
    return withSeparators(f.str());
}

std::string megabytesText(double bytes)
{
    std::ostringstream f; // printf's rounding: 62,500 bytes (0.0625 MB, exact) print as 0.062
    f << std::fixed << std::setprecision(3) << bytes / 1e6;
    return withSeparators(f.str());
}

std::string millisecondsText(int64_t ns)
{
    std::ostringstream f;
    f << std::fixed << std::setprecision(3) << double(ns) / 1e6;
    return f.str();
}

std::string fixed1(double v)
{
    return core::fixedHalfAwayFromZero(v, 1);
}

void TextTable::column(std::string header, bool left)
{
    headers.push_back(std::move(header));
    leftAligned.push_back(left);
}

void TextTable::nameColumns(bool nvtx)
{
    if (nvtx)
        column("Style", true);
    column(nvtx ? "Range" : "Name", true);
}

void TextTable::nameCells(std::vector<std::string> &cells, bool nvtx, const std::string &style, const std::string &name)
{
    if (nvtx)
        cells.push_back(style);
    cells.push_back(name);
}

void TextTable::print(std::ostream &out) const
{
    // Cells hold names from traces: their control characters are escaped before widths are
    // measured, so a name can neither drive the terminal nor break the columns.
    std::vector<std::vector<std::string>> rows = this->rows;
    for (auto &row : rows)
        for (std::string &cell : row)
            if (core::needsTerminalEscape(cell))
                cell = core::terminalSafe(cell);
    std::vector<size_t> width;
    for (const auto &h : headers)
        width.push_back(h.size());
    for (const auto &row : rows)
        for (size_t c = 0; c < row.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    auto line = [&](const std::vector<std::string> &cells) {
        std::string l;
        for (size_t c = 0; c < cells.size(); ++c) {
            const size_t fill = width[c] - std::min(width[c], cells[c].size());
            const bool last = c + 1 == cells.size();
            l += c ? "  " : " ";
            if (leftAligned[c])
                l += cells[c] + (last ? std::string() : std::string(fill, ' '));
            else
                l += std::string(fill, ' ') + cells[c];
        }
        out << l << "\n";
    };
    line(headers);
    std::vector<std::string> rule;
    for (size_t w : width)
        rule.push_back(std::string(w, '-'));
    line(rule);
    for (const auto &row : rows)
        line(row);
}

} // namespace ps::cli
