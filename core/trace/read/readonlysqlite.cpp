#include "core/trace/read/readonlysqlite.h"

#include "core/trace/persist/mappedfile.h"
#include "core/trace/store/eventtimes.h"

#include <unistd.h>

#include <sqlite3.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace ps::core::trace {

SqliteStmt::~SqliteStmt()
{
    if (m_s)
        sqlite3_finalize(m_s);
}

SqliteStmt &SqliteStmt::operator=(SqliteStmt &&o) noexcept
{
    if (this != &o) {
        if (m_s)
            sqlite3_finalize(m_s);
        m_s = o.m_s;
        m_rc = o.m_rc;
        o.m_s = nullptr;
    }
    return *this;
}

bool SqliteStmt::step()
{
    if (!m_s)
        return false;
    m_rc = sqlite3_step(m_s);
    return m_rc == SQLITE_ROW;
}

bool SqliteStmt::isNull(int col) const
{
    return sqlite3_column_type(m_s, col) == SQLITE_NULL;
}
bool SqliteStmt::isInteger(int col) const
{
    return sqlite3_column_type(m_s, col) == SQLITE_INTEGER;
}

bool hasUsableTimes(const SqliteStmt &s, int startCol, int endCol)
{
    return rowTimes(s, startCol, endCol).usable;
}

RowTimes rowTimes(const SqliteStmt &s, int startCol, int endCol)
{
    RowTimes t;
    if (sqlite3_column_type(s.get(), startCol) != SQLITE_INTEGER)
        return t;
    t.start = s.int64(startCol);
    if (!isPlausibleTime(t.start))
        return t;
    const int endType = sqlite3_column_type(s.get(), endCol);
    if (endType == SQLITE_NULL) {
        t.endNull = true;
        t.end = t.start;
    } else if (endType == SQLITE_INTEGER) {
        t.end = s.int64(endCol);
    } else {
        return t;
    }
    t.usable = true;
    return t;
}

int64_t SqliteStmt::int64(int col) const
{
    return sqlite3_column_int64(m_s, col);
}
double SqliteStmt::real(int col) const
{
    return sqlite3_column_double(m_s, col);
}

std::string_view SqliteStmt::text(int col) const
{
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_s, col));
    return p ? std::string_view(p, size_t(sqlite3_column_bytes(m_s, col))) : std::string_view();
}

void SqliteStmt::bind(int index, int64_t v)
{
    sqlite3_bind_int64(m_s, index, v);
}

ReadOnlySqlite::~ReadOnlySqlite()
{
    if (m_db)
        sqlite3_close_v2(m_db);
}

std::string sqliteReadOnlyUri(const std::string &path)
{
    std::string uri = "file:";
    for (unsigned char c : path) {
        if (c == '?' || c == '#' || c == '%' || c < 0x20 || c >= 0x7F) {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            uri += buf;
        } else {
            uri += char(c);
        }
    }
    return uri + "?mode=ro&immutable=1";
}

std::string ReadOnlySqlite::open(const std::string &path)
{
    // Readers run on several threads at once; SQLite's memory statistics take a global mutex
    // on every allocation. Only possible before SQLite initialises (else a harmless MISUSE).
    static std::once_flag once;
    std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
    m_path = path;
    // SQLite would happily "open" a missing path as an empty database under immutable=1 only
    // when asked to create it; mode=ro refuses, but the message is vague, so check first.
    // Only a regular file: SQLite's own open() of a FIFO would block forever.
    std::string why;
    if (const int fd = openRegularFile(path, why); fd >= 0)
        ::close(fd);
    else
        return path + ": cannot open: " + why;
    const int rc = sqlite3_open_v2(sqliteReadOnlyUri(path).c_str(), &m_db,
                                   SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = path + ": cannot open as SQLite: " + (m_db ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc));
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        return msg;
    }
    // Reading through mmap avoids a copy per page; the file is immutable for us.
    sqlite3_exec(m_db, "PRAGMA mmap_size=2147483648; PRAGMA cache_size=-65536;", nullptr, nullptr, nullptr);
    return {};
}

SqliteStmt ReadOnlySqlite::prepare(const std::string &sql, std::string &error) const
{
    sqlite3_stmt *s = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), int(sql.size()), &s, nullptr) != SQLITE_OK) {
        error = lastError();
        return SqliteStmt();
    }
    return SqliteStmt(s);
}

std::string ReadOnlySqlite::lastError() const
{
    return m_path + ": " + (m_db ? sqlite3_errmsg(m_db) : "not open");
}

std::string ReadOnlySqlite::openTables(const std::string &path, std::string_view what, std::set<std::string> &tables)
{
    if (std::string err = open(path); !err.empty())
        return err;
    std::string error;
    tables = this->tables(error);
    if (!error.empty())
        return error + " (expected " + std::string(what) + ")";
    return {};
}

std::set<std::string> ReadOnlySqlite::tables(std::string &error) const
{
    std::set<std::string> out;
    SqliteStmt s = prepare("SELECT name FROM sqlite_master WHERE type IN ('table','view')", error);
    if (!s.get())
        return out;
    while (s.step())
        out.emplace(s.text(0));
    if (s.stepCode() != SQLITE_DONE)
        error = lastError();
    return out;
}

std::vector<std::string> ReadOnlySqlite::columns(const std::string &table) const
{
    std::vector<std::string> out;
    std::string error;
    SqliteStmt s = prepare("SELECT name FROM pragma_table_info(?1)", error);
    if (!s.get())
        return out;
    sqlite3_bind_text(s.get(), 1, table.c_str(), int(table.size()), SQLITE_TRANSIENT);
    while (s.step())
        out.emplace_back(s.text(0));
    return out;
}

std::set<std::string> ReadOnlySqlite::columnSet(const std::string &table) const
{
    const std::vector<std::string> names = columns(table);
    return {names.begin(), names.end()};
}

} // namespace ps::core::trace
