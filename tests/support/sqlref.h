#pragma once
// Independent reference values for tests: plain SQL over the same files through the sqlite3 C
// API, never through the reader under test. Opened read-only and immutable through core's
// sqliteReadOnlyUri() (the path escaped: '?', '#', '%' in a name cannot change the URI), so
// testdata is never written and no -wal/-shm files appear beside it. Header-only, like the rest
// of tests/support.

#include "core/trace/read/readonlysqlite.h"

#include <sqlite3.h>

#include <QString>
#include <QVariant>
#include <QVariantList>

#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ps::test {

class SqlRef
{
public:
    explicit SqlRef(const std::string &path)
    {
        const std::string uri = ps::core::trace::sqliteReadOnlyUri(path);
        if (sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
            sqlite3_close(m_db);
            m_db = nullptr;
        }
    }
    explicit SqlRef(const QString &path) : SqlRef(path.toStdString()) {}
    ~SqlRef() { sqlite3_close(m_db); }
    SqlRef(const SqlRef &) = delete;
    SqlRef &operator=(const SqlRef &) = delete;

    bool ok() const { return m_db != nullptr; }

    // Calls onRow(stmt) for every result row of `sql`; a failing statement warns.
    template <class RowFn> void forEachRow(const std::string &sql, RowFn onRow) const
    {
        sqlite3_stmt *s = nullptr;
        if (!m_db || sqlite3_prepare_v2(m_db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
            qWarning("SQL error %s in %s", m_db ? sqlite3_errmsg(m_db) : "not open", sql.c_str());
            return;
        }
        while (sqlite3_step(s) == SQLITE_ROW)
            onRow(s);
        sqlite3_finalize(s);
    }

    // Every row; integers as qint64, NULL as an invalid QVariant, anything else as SQLite's text
    // for it. A failing statement warns and gives no rows.
    std::vector<QVariantList> rows(const std::string &sql) const
    {
        std::vector<QVariantList> out;
        forEachRow(sql, [&](sqlite3_stmt *s) {
            QVariantList row;
            for (int c = 0; c < sqlite3_column_count(s); ++c)
                row << cell(s, c);
            out.push_back(row);
        });
        return out;
    }
    std::vector<QVariantList> rows(const QString &sql) const { return rows(sql.toStdString()); }
    std::vector<QVariantList> rows(const char *sql) const { return rows(std::string(sql)); }

    // Every row as text cells joined by '|' ("NULL" for null): easy to compare as a whole.
    std::vector<std::string> textRows(const std::string &sql) const
    {
        std::vector<std::string> out;
        forEachRow(sql, [&](sqlite3_stmt *s) {
            std::string line;
            for (int c = 0; c < sqlite3_column_count(s); ++c) {
                const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(s, c));
                line += (c ? "|" : "") + std::string(text ? text : "NULL");
            }
            out.push_back(std::move(line));
        });
        return out;
    }

    // Every row as integers (NULL = INT64_MIN).
    std::vector<std::vector<int64_t>> ints(const std::string &sql) const
    {
        std::vector<std::vector<int64_t>> out;
        for (const QVariantList &row : rows(sql)) {
            std::vector<int64_t> r;
            for (const QVariant &v : row)
                r.push_back(v.isValid() ? v.toLongLong() : INT64_MIN);
            out.push_back(std::move(r));
        }
        return out;
    }

    // Rows of (text, four integers): the shape of a per-name summary.
    struct SummaryRow
    {
        std::string name;
        int64_t count, total, min, max;
    };
    std::vector<SummaryRow> summaryRows(const std::string &sql) const
    {
        std::vector<SummaryRow> out;
        forEachRow(sql, [&](sqlite3_stmt *s) {
            const auto *t = reinterpret_cast<const char *>(sqlite3_column_text(s, 0));
            out.push_back({t ? t : "", sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2),
                           sqlite3_column_int64(s, 3), sqlite3_column_int64(s, 4)});
        });
        return out;
    }

    // First column of the first row, if any and not NULL.
    QVariant value(const std::string &sql) const
    {
        const auto r = rows(sql);
        return r.empty() || r.front().isEmpty() ? QVariant() : r.front().front();
    }
    QVariant value(const QString &sql) const { return value(sql.toStdString()); }
    QVariant value(const char *sql) const { return value(std::string(sql)); }
    std::optional<int64_t> scalar(const std::string &sql) const
    {
        const QVariant v = value(sql);
        return v.isValid() ? std::optional<int64_t>(v.toLongLong()) : std::nullopt;
    }
    // scalar(), INT64_MIN when there is none: for comparisons with counts.
    int64_t integer(const std::string &sql) const { return scalar(sql).value_or(INT64_MIN); }
    // A count(*) query's result (0 when the query fails).
    qint64 count(const QString &sql) const { return value(sql).toLongLong(); }
    // count(*) of a table with a condition; 0 when the table is absent.
    int64_t countWhere(const std::string &table, const std::string &where = "1") const
    {
        return hasTable(table) ? scalar("SELECT count(*) FROM \"" + table + "\" WHERE " + where).value_or(0) : 0;
    }

    bool hasTable(const std::string &name) const
    {
        return scalar("SELECT count(*) FROM sqlite_master WHERE type IN ('table','view') AND name = '" + name + "'")
                   .value_or(0) > 0;
    }
    bool hasTable(const QString &name) const { return hasTable(name.toStdString()); }
    bool hasTable(const char *name) const { return hasTable(std::string(name)); }
    std::vector<std::string> tables() const
    {
        return textRows("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name");
    }
    std::vector<std::string> columns(const std::string &table) const
    {
        return textRows("SELECT name FROM pragma_table_info('" + table + "')");
    }

private:
    static QVariant cell(sqlite3_stmt *s, int c)
    {
        switch (sqlite3_column_type(s, c)) {
        case SQLITE_INTEGER:
            return QVariant(qint64(sqlite3_column_int64(s, c)));
        case SQLITE_NULL:
            return QVariant();
        default:
            return QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(s, c)),
                                     sqlite3_column_bytes(s, c));
        }
    }

    sqlite3 *m_db = nullptr;
};

// "ATTACH '<read-only URI of path>' AS alias;": copies tables out of a real export into a test's
// own database without ever opening the export for writing.
inline std::string attachReadOnlySql(const std::string &path, const std::string &alias)
{
    std::string quoted;
    for (char c : ps::core::trace::sqliteReadOnlyUri(path))
        quoted += c == '\'' ? std::string("''") : std::string(1, c);
    return "ATTACH '" + quoted + "' AS " + alias + ";";
}

} // namespace ps::test
