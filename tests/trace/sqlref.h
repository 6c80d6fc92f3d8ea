#pragma once
// Independent reference values for trace tests: plain SQL over the same files through the
// sqlite3 C API (read-only, immutable), never through the code under test.

#include <sqlite3.h>

#include <QDir>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sqlref {

inline QString nsysDir()
{
    return QStringLiteral(PS_TESTDATA_DIR "/traces/nsys");
}

inline QStringList nsysFiles()
{
    QStringList out;
    for (const QString &f : QDir(nsysDir()).entryList({"*.sqlite"}, QDir::Files, QDir::Name))
        out << nsysDir() + "/" + f;
    return out;
}

class Db
{
public:
    explicit Db(const std::string &path)
    {
        const std::string uri = "file:" + path + "?mode=ro&immutable=1";
        if (sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
            sqlite3_close(m_db);
            m_db = nullptr;
        }
    }
    ~Db() { sqlite3_close(m_db); }
    bool ok() const { return m_db != nullptr; }

    bool hasTable(const std::string &t) const
    {
        return scalar("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='" + t + "'").value_or(0) > 0;
    }
    // First column of the first row, if any and not NULL.
    std::optional<int64_t> scalar(const std::string &sql) const
    {
        sqlite3_stmt *s = nullptr;
        std::optional<int64_t> v;
        if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW &&
            sqlite3_column_type(s, 0) != SQLITE_NULL)
            v = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
        return v;
    }
    // count(*) of a table with a condition; 0 when the table is absent.
    int64_t count(const std::string &table, const std::string &where = "1") const
    {
        if (!hasTable(table))
            return 0;
        return scalar("SELECT count(*) FROM " + table + " WHERE " + where).value_or(0);
    }
    struct Row
    {
        std::string name;
        int64_t count, total, min, max;
    };
    std::vector<Row> rows(const std::string &sql) const
    {
        std::vector<Row> out;
        sqlite3_stmt *s = nullptr;
        if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK)
            while (sqlite3_step(s) == SQLITE_ROW) {
                const auto *t = reinterpret_cast<const char *>(sqlite3_column_text(s, 0));
                out.push_back({t ? t : "", sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2),
                               sqlite3_column_int64(s, 3), sqlite3_column_int64(s, 4)});
            }
        sqlite3_finalize(s);
        return out;
    }

private:
    sqlite3 *m_db = nullptr;
};

} // namespace sqlref
