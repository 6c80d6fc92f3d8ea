#pragma once
// Text tables of the trace commands, laid out as `nsys stats` prints them.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ps::cli {

// A number with thousands separators, as nsys stats prints them: 1234567 -> "1,234,567";
// `decimals` digits after the point (1 -> "1,234,567.5"), a tie rounded away from zero as nsys
// stats' SQL rounds (core/common/decimalround.h).
std::string groupedNumber(long double v, int decimals = 0);
// Bytes as MB (10^6) with three decimals and thousands separators, as nsys stats prints its size
// columns: rounded on the binary value to nearest, ties to even (0.0625 -> "0.062"), not as its SQL
// rounds.
std::string megabytesText(double bytes);
// One digit after the point: 66.66 -> "66.7", 12.25 -> "12.3" (as nsys stats rounds).
std::string fixed1(double v);
// Nanoseconds as milliseconds with three decimals: 1234567 -> "1.235".
std::string millisecondsText(int64_t ns);

// A header, a dashed rule, right-aligned numbers, left-aligned text; two spaces between columns,
// the last one unpadded.
struct TextTable
{
    std::vector<std::string> headers;
    std::vector<bool> leftAligned;
    std::vector<std::vector<std::string>> rows;

    void column(std::string header, bool left);
    // The columns both stats tables end with, as nsys ends its rows: Style (nvtx_sum only), then
    // Range (nvtx_sum) or Name; nameCells() gives a row's cells for them.
    void nameColumns(bool nvtx);
    static void nameCells(std::vector<std::string> &cells, bool nvtx, const std::string &style,
                          const std::string &name);
    void print(std::ostream &out) const;
};

} // namespace ps::cli
