#include "sqlitereader.h"

#include <sqlite3.h>

#include <climits>

SqliteReader::SqliteReader(const std::string &path)
{
    const std::string uri = "file:" + path + "?immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
        sqlite3_close(m_db);
        m_db = nullptr;
    }
}

SqliteReader::~SqliteReader()
{
    sqlite3_close(m_db);
}

std::vector<std::string> SqliteReader::tables()
{
    return rows("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name");
}

std::vector<std::string> SqliteReader::columns(const std::string &table)
{
    std::vector<std::string> names;
    for (const std::string &row : rows("SELECT name FROM pragma_table_info('" + table + "')"))
        names.push_back(row);
    return names;
}

std::vector<std::string> SqliteReader::rows(const std::string &sql)
{
    std::vector<std::string> out;
    sqlite3_stmt *stmt = nullptr;
    if (!m_db || sqlite3_prepare_v2(m_db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
        return {"<error: " + std::string(m_db ? sqlite3_errmsg(m_db) : "not open") + ">"};
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        std::string line;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
            if (c)
                line += '|';
            const unsigned char *text = sqlite3_column_text(stmt, c);
            line += text ? reinterpret_cast<const char *>(text) : "NULL";
        }
        out.push_back(std::move(line));
    }
    sqlite3_finalize(stmt);
    return out;
}

std::vector<std::vector<int64_t>> SqliteReader::ints(const std::string &sql)
{
    std::vector<std::vector<int64_t>> out;
    sqlite3_stmt *stmt = nullptr;
    if (!m_db || sqlite3_prepare_v2(m_db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
        return out;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        std::vector<int64_t> row;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c)
            row.push_back(sqlite3_column_type(stmt, c) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(stmt, c));
        out.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    return out;
}

int64_t SqliteReader::scalar(const std::string &sql)
{
    const auto r = ints(sql);
    return r.empty() || r.front().empty() ? INT64_MIN : r.front().front();
}
