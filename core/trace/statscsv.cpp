#include "core/trace/statscsv.h"

#include <iomanip>
#include <sstream>

namespace ps::core::trace {

std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

std::string statsCsvHeader(StatsCsvColumns columns)
{
    return std::string(columns.report ? "report," : "") +
           "name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct" + (columns.style ? ",style" : "") +
           "\n";
}

std::string statsCsvLine(const StatRow &row, StatsCsvColumns columns, std::string_view report)
{
    std::ostringstream line;
    line << std::fixed << std::setprecision(1);
    if (columns.report)
        line << csvField(report) << ',';
    line << csvField(row.name) << ',' << row.count << ',' << row.totalNs << ',' << row.avgNs << ',' << row.medNs << ','
         << row.minNs << ',' << row.maxNs << ',' << row.stddevNs << ',' << row.timePct;
    if (columns.style)
        line << ',' << csvField(row.style);
    line << '\n';
    return line.str();
}

} // namespace ps::core::trace
