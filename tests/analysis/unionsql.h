#pragma once
// Interval unions computed in SQL (gaps and islands with window functions) over the same files
// the readers load: the independent reference of the breakdown tests.

#include "tests/support/sqlref.h"
#include "tests/support/testdata.h"

#include <string>

namespace unionsql {

// SQL giving one row (union length, first start, last end) over `intervals`, a SELECT of
// (start, end) rows.
inline std::string unionStats(const std::string &intervals)
{
    return "WITH ev AS (" + intervals +
           "),"
           " o AS (SELECT start, end, max(end) OVER (ORDER BY start, end ROWS BETWEEN UNBOUNDED PRECEDING AND 1 "
           "PRECEDING) AS prev FROM ev),"
           " g AS (SELECT start, end, sum(CASE WHEN prev IS NULL OR start > prev THEN 1 ELSE 0 END) OVER (ORDER BY "
           "start, end ROWS UNBOUNDED PRECEDING) AS grp FROM o),"
           " m AS (SELECT min(start) AS s, max(end) AS e FROM g GROUP BY grp)"
           " SELECT ifnull(sum(e - s), 0), min(s), max(e) FROM m";
}

struct Stats
{
    int64_t length = 0, first = 0, last = 0;
};

inline Stats query(const ps::test::SqlRef &db, const std::string &intervals)
{
    const auto rows = db.summaryRows("SELECT 'x', * FROM (" + unionStats(intervals) + ")");
    if (rows.empty())
        return {};
    return {rows[0].count, rows[0].total, rows[0].min};
}

} // namespace unionsql
