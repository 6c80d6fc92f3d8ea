#pragma once
// Read-only access to SQLite files for the demo tests: the real exports in testdata are opened
// immutable (never written, no -wal/-shm beside them), the generated ones read-only.

#include <cstdint>
#include <string>
#include <vector>

struct sqlite3;

class SqliteReader
{
public:
    explicit SqliteReader(const std::string &path);
    ~SqliteReader();
    SqliteReader(const SqliteReader &) = delete;
    SqliteReader &operator=(const SqliteReader &) = delete;

    bool isOpen() const { return m_db != nullptr; }
    std::vector<std::string> tables();
    std::vector<std::string> columns(const std::string &table);
    // Every row of a query, each cell rendered as text ("NULL" for null), cells joined by '|'.
    std::vector<std::string> rows(const std::string &sql);
    // Every row of a query as integers (null = INT64_MIN).
    std::vector<std::vector<int64_t>> ints(const std::string &sql);
    int64_t scalar(const std::string &sql);

private:
    sqlite3 *m_db = nullptr;
};
