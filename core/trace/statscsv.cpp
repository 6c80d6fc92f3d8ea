#include "core/trace/statscsv.h"

#include "core/common/csvfield.h"
#include "core/common/decimalround.h"

#include <sstream>

namespace ps::core::trace {

std::string statsCsvHeader(StatsCsvColumns columns)
{
    const std::string head = columns.report ? "report,name,count," : "name,count,";
    const std::string values = columns.bytes ? "total_bytes,avg_bytes,med_bytes,min_bytes,max_bytes,stddev_bytes"
                                             : "total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct";
    return head + values + (columns.style ? ",style" : "") + "\n";
}

std::string statsCsvLine(const StatRow &row, StatsCsvColumns columns, std::string_view report)
{
    // One decimal, ties away from zero, as nsys stats --format csv prints its SQL-rounded values.
    const auto d1 = [](double v) { return fixedHalfAwayFromZero(v, 1); };
    std::ostringstream line;
    if (columns.report)
        line << csvTextField(report) << ',';
    line << csvTextField(row.name) << ',' << row.count << ',' << row.totalNs << ',' << d1(row.avgNs) << ','
         << d1(row.medNs) << ',' << row.minNs << ',' << row.maxNs << ',' << d1(row.stddevNs);
    if (!columns.bytes)
        line << ',' << d1(row.timePct);
    if (columns.style)
        line << ',' << csvTextField(row.style);
    line << '\n';
    return line.str();
}

} // namespace ps::core::trace
