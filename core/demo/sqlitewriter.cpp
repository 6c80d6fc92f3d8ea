#include "core/demo/sqlitewriter.h"

#include <sqlite3.h>

#include <cstdio>

namespace ps::core::demo {

WriteStatement::WriteStatement(SqliteWriter &db, const char *sql) : m_db(db)
{
    if (sqlite3_prepare_v2(db.handle(), sql, -1, &m_stmt, nullptr) != SQLITE_OK) {
        db.fail(std::string("cannot prepare statement: ") + sqlite3_errmsg(db.handle()));
        m_stmt = nullptr;
    }
}

WriteStatement::~WriteStatement()
{
    sqlite3_finalize(m_stmt);
}

void WriteStatement::bind(int index, int64_t value)
{
    if (m_stmt)
        sqlite3_bind_int64(m_stmt, index, value);
}

void WriteStatement::bind(int index, double value)
{
    if (m_stmt)
        sqlite3_bind_double(m_stmt, index, value);
}

void WriteStatement::bind(int index, std::string_view text)
{
    if (m_stmt)
        sqlite3_bind_text(m_stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

void WriteStatement::bindNull(int index)
{
    if (m_stmt)
        sqlite3_bind_null(m_stmt, index);
}

void WriteStatement::run()
{
    if (!m_stmt)
        return;
    if (sqlite3_step(m_stmt) != SQLITE_DONE)
        m_db.fail(std::string("cannot insert: ") + sqlite3_errmsg(m_db.handle()));
    // Callers bind every parameter of every row, so the bindings need no clearing.
    sqlite3_reset(m_stmt);
}

SqliteWriter::~SqliteWriter()
{
    if (m_db)
        sqlite3_close(m_db);
}

bool SqliteWriter::create(const std::string &path)
{
    m_path = path;
    std::remove(path.c_str());
    if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        fail("cannot create " + path + ": " + (m_db ? sqlite3_errmsg(m_db) : "out of memory"));
        return false;
    }
    // A half-written file is deleted by the caller, so durability during the write buys nothing.
    exec("PRAGMA journal_mode=OFF");
    exec("PRAGMA synchronous=OFF");
    exec("PRAGMA locking_mode=EXCLUSIVE");
    exec("PRAGMA cache_size=-65536");
    return ok();
}

void SqliteWriter::exec(const char *sql)
{
    if (!m_db)
        return;
    char *message = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        fail(std::string("sqlite: ") + (message ? message : "unknown error"));
        sqlite3_free(message);
    }
}

bool SqliteWriter::close()
{
    if (m_db && sqlite3_close(m_db) != SQLITE_OK)
        fail(std::string("cannot close database: ") + sqlite3_errmsg(m_db));
    m_db = nullptr;
    return ok();
}

void SqliteWriter::fail(const std::string &what)
{
    if (m_error.empty())
        m_error = m_path.empty() || what.find(m_path) != std::string::npos ? what : m_path + ": " + what;
}

} // namespace ps::core::demo
