#pragma once
// Minimal RAII over the sqlite3 C API for writing a database fast: one connection, prepared
// statements that are bound, stepped and reset per row. Errors are kept as text on the database
// object (the first one wins) so that a generator can write a million rows without checking
// each call and report the first failure once at the end.

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace ps::core::demo {

class SqliteWriter;

class WriteStatement
{
public:
    WriteStatement(SqliteWriter &db, const char *sql);
    ~WriteStatement();
    WriteStatement(const WriteStatement &) = delete;
    WriteStatement &operator=(const WriteStatement &) = delete;

    // Parameters are 1-based, as in sqlite3_bind_*.
    void bind(int index, int64_t value);
    void bind(int index, double value);
    void bind(int index, std::string_view text); // copied (SQLITE_TRANSIENT)
    void bindNull(int index);
    // Runs the statement once and resets it. Bindings stay: bind every parameter for each row.
    void run();

private:
    SqliteWriter &m_db;
    sqlite3_stmt *m_stmt = nullptr;
};

class SqliteWriter
{
public:
    SqliteWriter() = default;
    ~SqliteWriter();
    SqliteWriter(const SqliteWriter &) = delete;
    SqliteWriter &operator=(const SqliteWriter &) = delete;

    // Creates (or truncates) `path` and tunes the connection for a one-shot bulk write: no
    // journal, no fsync until close. Returns false with error() set.
    bool create(const std::string &path);
    void exec(const char *sql);
    // Closes the connection; false if closing or any earlier call failed.
    bool close();

    // The first failure, naming the file ("x.sqlite.part: sqlite: database or disk is full").
    const std::string &error() const { return m_error; }
    bool ok() const { return m_error.empty(); }
    void fail(const std::string &what);
    sqlite3 *handle() { return m_db; }

private:
    sqlite3 *m_db = nullptr;
    std::string m_path;
    std::string m_error;
};

} // namespace ps::core::demo
