#pragma once
// Independent reference values for the SQLite-based readers: plain SQL over the same files
// through the sqlite3 C API (read-only, immutable), never through the code under test.

#include <sqlite3.h>

#include <QString>
#include <QStringList>
#include <QVariant>

#include <string>
#include <vector>

namespace sqlquery {

class Db
{
public:
    explicit Db(const QString &path)
    {
        const std::string uri = "file:" + path.toStdString() + "?mode=ro&immutable=1";
        if (sqlite3_open_v2(uri.c_str(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
            sqlite3_close(m_db);
            m_db = nullptr;
        }
    }
    ~Db() { sqlite3_close(m_db); }
    Db(const Db &) = delete;
    Db &operator=(const Db &) = delete;
    bool ok() const { return m_db != nullptr; }

    // All rows; integers as qint64, text as QString, NULL as an invalid QVariant.
    std::vector<QVariantList> rows(const QString &sql) const
    {
        std::vector<QVariantList> out;
        sqlite3_stmt *s = nullptr;
        if (sqlite3_prepare_v2(m_db, sql.toUtf8().constData(), -1, &s, nullptr) != SQLITE_OK) {
            qWarning("SQL error %s in %s", sqlite3_errmsg(m_db), qPrintable(sql));
            return out;
        }
        while (sqlite3_step(s) == SQLITE_ROW) {
            QVariantList row;
            for (int c = 0; c < sqlite3_column_count(s); ++c) {
                switch (sqlite3_column_type(s, c)) {
                case SQLITE_INTEGER:
                    row << QVariant(qint64(sqlite3_column_int64(s, c)));
                    break;
                case SQLITE_NULL:
                    row << QVariant();
                    break;
                default:
                    row << QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(s, c)));
                    break;
                }
            }
            out.push_back(row);
        }
        sqlite3_finalize(s);
        return out;
    }
    QVariant value(const QString &sql) const
    {
        const auto r = rows(sql);
        return r.empty() || r.front().isEmpty() ? QVariant() : r.front().front();
    }
    qint64 count(const QString &sql) const { return value(sql).toLongLong(); }
    bool hasTable(const QString &name) const
    {
        return count("SELECT count(*) FROM sqlite_master WHERE name = '" + name + "'") > 0;
    }

private:
    sqlite3 *m_db = nullptr;
};

} // namespace sqlquery
