#pragma once
// The read-only side of SQLite in ProfStudio: a connection for the trace readers (nsys, rocpd,
// Ascend) and for tests that compute reference values by plain SQL. Opened through
// sqliteReadOnlyUri() (mode=ro&immutable=1, the path escaped) so that the input is never written
// and no -wal/-shm files appear beside it. Writing a database is core/demo's SqliteWriter.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace ps::core::trace {

class SqliteStmt
{
public:
    SqliteStmt() = default;
    explicit SqliteStmt(sqlite3_stmt *s) : m_s(s) {}
    ~SqliteStmt();
    SqliteStmt(SqliteStmt &&o) noexcept : m_s(o.m_s) { o.m_s = nullptr; }
    SqliteStmt &operator=(SqliteStmt &&o) noexcept;
    SqliteStmt(const SqliteStmt &) = delete;
    SqliteStmt &operator=(const SqliteStmt &) = delete;

    // true: a row is ready; false: done or error (see ReadOnlySqlite::lastError / stepError()).
    bool step();
    int stepCode() const { return m_rc; }
    bool isNull(int col) const;
    // The value is stored as an integer (not text, real, blob or NULL).
    bool isInteger(int col) const;
    int64_t int64(int col) const;
    double real(int col) const;
    std::string_view text(int col) const;
    void bind(int index, int64_t v);
    sqlite3_stmt *get() const { return m_s; }

private:
    sqlite3_stmt *m_s = nullptr;
    int m_rc = 0;
};

// A row whose start (column `startCol`) is not an integer (text, real, blob, NULL) or beyond any
// clock, or whose end is neither NULL nor an integer, gives no time: readers drop such rows and
// count them (eventtimes.h).
bool hasUsableTimes(const SqliteStmt &s, int startCol = 0, int endCol = 1);

// The same check with the row's times, each column read once (the nsys reader of 10 M rows paid
// 1 s of CPU for asking SQLite each column's type and value twice): `usable` as hasUsableTimes,
// `end` the start when the end is NULL. The Ascend and rocpd row handlers still read their times
// again after the check.
struct RowTimes
{
    bool usable = false;
    bool endNull = false;
    int64_t start = 0, end = 0;
};
RowTimes rowTimes(const SqliteStmt &s, int startCol = 0, int endCol = 1);

class ReadOnlySqlite
{
public:
    ReadOnlySqlite() = default;
    ~ReadOnlySqlite();
    ReadOnlySqlite(ReadOnlySqlite &&o) noexcept : m_db(o.m_db), m_path(std::move(o.m_path)) { o.m_db = nullptr; }
    ReadOnlySqlite(const ReadOnlySqlite &) = delete;
    ReadOnlySqlite &operator=(const ReadOnlySqlite &) = delete;

    // Opens `path` read-only and immutable. Returns "" or "PATH: reason".
    std::string open(const std::string &path);
    // What every trace reader does first: open() and list the tables and views into `tables`.
    // Returns "" or "PATH: reason", the listing's failure followed by " (expected <what>)", e.g.
    // "an Nsight Systems SQLite export", since a file that is not SQLite fails there.
    std::string openTables(const std::string &path, std::string_view what, std::set<std::string> &tables);
    bool isOpen() const { return m_db != nullptr; }

    // Prepares a statement; on failure returns an empty statement and sets `error`.
    SqliteStmt prepare(const std::string &sql, std::string &error) const;
    // "PATH: <sqlite message>" for the last failure on this connection.
    std::string lastError() const;

    // Names of the tables and views (empty set and an error when the file is not SQLite).
    std::set<std::string> tables(std::string &error) const;
    // Column names of a table, in order.
    std::vector<std::string> columns(const std::string &table) const;
    // The same names as a set, to ask "does this schema have column X".
    std::set<std::string> columnSet(const std::string &table) const;

private:
    sqlite3 *m_db = nullptr;
    std::string m_path;
};

// file: URI for a path, with the characters SQLite's URI parser treats specially escaped.
std::string sqliteReadOnlyUri(const std::string &path);

} // namespace ps::core::trace
