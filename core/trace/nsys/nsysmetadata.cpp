#include "core/trace/nsys/nsysmetadata.h"

#include "core/trace/nsys/nsystables.h"
#include "core/trace/nsys/nvtxeventtype.h"
#include "core/trace/read/readonlysqlite.h"
#include "core/trace/store/eventtimes.h"
#include "core/trace/store/launchidentity.h"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>

namespace ps::core::trace::nsys {

namespace {

std::map<std::string, std::string> readKeyValues(const ReadOnlySqlite &db, const std::string &table)
{
    std::map<std::string, std::string> out;
    std::string error;
    SqliteStmt s = db.prepare("SELECT name, value FROM \"" + table + "\"", error);
    while (s.get() && s.step())
        out[std::string(s.text(0))] = std::string(s.text(1));
    return out;
}

// The table was renamed in 2023.4 (spec 1.1); older exports have neither. Returns whether the
// export was made with --ts-normalize.
bool readExportMetadata(const ReadOnlySqlite &db, const std::set<std::string> &tables, ReportMeta &meta)
{
    for (const char *mt : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
        if (!tables.count(mt))
            continue;
        auto kv = readKeyValues(db, mt);
        meta.exporterVersion = kv["EXPORT_PRODUCT_VERSION"];
        meta.schemaVersion = kv["EXPORT_SCHEMA_VERSION"];
        std::string normalize = kv["EXPORT_PARAM_TIME_NORMALIZE"];
        std::transform(normalize.begin(), normalize.end(), normalize.begin(),
                       [](unsigned char ch) { return char(std::tolower(ch)); });
        return normalize == "true" || normalize == "1";
    }
    return false;
}

std::optional<int64_t> readSessionStart(const ReadOnlySqlite &db, const std::set<std::string> &tables)
{
    if (!tables.count("TARGET_INFO_SESSION_START_TIME") || db.columns("TARGET_INFO_SESSION_START_TIME").empty())
        return std::nullopt;
    std::string error;
    SqliteStmt s = db.prepare("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME LIMIT 1", error);
    if (s.get() && s.step() && !s.isNull(0))
        return s.int64(0);
    return std::nullopt;
}

void readHostAndGpus(const ReadOnlySqlite &db, const std::set<std::string> &tables, ReportMeta &meta)
{
    std::string error;
    if (tables.count("TARGET_INFO_SYSTEM_ENV")) {
        SqliteStmt s = db.prepare("SELECT value FROM TARGET_INFO_SYSTEM_ENV WHERE name='Hostname' LIMIT 1", error);
        if (s.get() && s.step())
            meta.host = std::string(s.text(0));
    }
    if (!tables.count("TARGET_INFO_GPU"))
        return;
    const std::set<std::string> c = db.columnSet("TARGET_INFO_GPU");
    const std::string idCol = c.count("id") ? "id" : c.count("deviceId") ? "deviceId" : "0";
    SqliteStmt s =
        db.prepare("SELECT " + idCol + ", " + column(c, "name", "''") + ", " + column(c, "busLocation", "''") + ", " +
                       column(c, "uuid", "''") + " FROM TARGET_INFO_GPU",
                   error);
    while (s.get() && s.step())
        meta.gpus.push_back(
            {uint32_t(s.int64(0)), std::string(s.text(1)), std::string(s.text(2)), std::string(s.text(3))});
}

void readThreadNames(const ReadOnlySqlite &db, const std::vector<NameId> &strings, StoreBuilder &b)
{
    std::string error;
    SqliteStmt s = db.prepare("SELECT globalTid, nameId FROM ThreadNames", error);
    while (s.get() && s.step())
        b.setThreadName(pidOf(s.int64(0)), tidOf(s.int64(0)), mapString(strings, s.int64(1)));
}

void readProcessStreams(const ReadOnlySqlite &db, ReportMeta &meta)
{
    std::string error;
    SqliteStmt s = db.prepare("SELECT ps.globalPid, f.value, c.value FROM ProcessStreams ps LEFT JOIN StringIds f "
                              "ON f.id = ps.filenameId LEFT JOIN StringIds c ON c.id = ps.contentId",
                              error);
    while (s.get() && s.step())
        meta.processStreams.push_back({pidOf(s.int64(0)), std::string(s.text(1)), std::string(s.text(2))});
}

void readNvtxScopeNames(const ReadOnlySqlite &db, const std::vector<NameId> &strings, StoreBuilder &b,
                        NameTables &names)
{
    const std::set<std::string> c = db.columnSet("NVTX_EVENTS");
    std::string error;
    SqliteStmt s =
        db.prepare("SELECT " + column(c, "eventType", "0") + ", " + column(c, "globalTid", "0") + ", " +
                       column(c, "domainId", "0") + ", " + column(c, "category", "0") + ", " + column(c, "text") +
                       ", " + column(c, "textId") + " FROM NVTX_EVENTS WHERE eventType IN (" +
                       sqlList({NvtxEventType::Category, NvtxEventType::DomainCreate}) + ")",
                   error);
    while (s.get() && s.step()) {
        const NameId n = !s.isNull(4) ? b.intern(s.text(4)) : mapString(strings, s.isNull(5) ? -1 : s.int64(5));
        if (s.int64(0) == number(NvtxEventType::DomainCreate))
            names.domainNames[{pidOf(s.int64(1)), s.int64(2)}] = n;
        else
            names.categoryNames[{pidOf(s.int64(1)), s.int64(2), s.int64(3)}] = n;
    }
}

// What META_DATA_CAPTURE recorded of one launched process (PROCESS_<n>:...).
struct LaunchRows
{
    std::vector<std::string> commandLine; // COMMAND, then ARGUMENT_0, ARGUMENT_1, ...
    std::map<int64_t, std::string> arguments;
    std::vector<EnvironmentVariable> environment;
    uint32_t pid = 0;
};

// "PROCESS_12:ENVIRONMENT_VARIABLE" -> 12 and "ENVIRONMENT_VARIABLE"; false for other rows.
bool splitProcessKey(std::string_view name, int64_t &index, std::string_view &key)
{
    constexpr std::string_view kPrefix = "PROCESS_";
    const size_t colon = name.find(':');
    if (!name.starts_with(kPrefix) || colon == std::string_view::npos)
        return false;
    const char *first = name.data() + kPrefix.size(), *last = name.data() + colon;
    const auto [p, ec] = std::from_chars(first, last, index);
    key = name.substr(colon + 1);
    return ec == std::errc() && p == last && index >= 0;
}

// NAME="value" (the value may span lines and hold quotes); false when the row is not that.
bool parseEnvironmentRow(std::string_view text, EnvironmentVariable &out)
{
    const size_t eq = text.find('=');
    if (eq == 0 || eq == std::string_view::npos || text.size() < eq + 3 || text[eq + 1] != '"' || text.back() != '"')
        return false;
    const std::string_view name = text.substr(0, eq);
    if (std::any_of(name.begin(), name.end(), [](unsigned char c) { return std::isspace(c) || c == '"'; }))
        return false;
    out = {std::string(name), std::string(text.substr(eq + 2, text.size() - eq - 3))};
    return true;
}

// Malformed rows are said, the first few in full: a hostile export must not make a warning per row.
class RowProblems
{
public:
    void add(std::string text)
    {
        if (m_count++ < kShown)
            m_shown.push_back(std::move(text));
    }
    void into(ReportMeta &meta) const
    {
        for (const std::string &t : m_shown)
            meta.warnings.push_back(std::string(kInvalidDataWarning) + t);
        if (m_count > kShown)
            meta.warnings.push_back(std::string(kInvalidDataWarning) + std::to_string(m_count - kShown) +
                                    " more problems in META_DATA_CAPTURE's process rows");
    }

private:
    static constexpr size_t kShown = 3;
    size_t m_count = 0;
    std::vector<std::string> m_shown;
};

void addLaunchRow(LaunchRows &p, std::string_view key, std::string_view name, std::string_view value,
                  RowProblems &problems)
{
    int64_t n = 0;
    if (key == "ENVIRONMENT_VARIABLE") {
        EnvironmentVariable v;
        if (parseEnvironmentRow(value, v))
            p.environment.push_back(std::move(v));
        else
            problems.add("META_DATA_CAPTURE row " + std::string(name) + " is \"" + std::string(value.substr(0, 80)) +
                         "\", expected NAME=\"value\"; the variable is not used");
    } else if (key == "COMMAND") {
        p.commandLine.insert(p.commandLine.begin(), std::string(value));
    } else if (key.starts_with("ARGUMENT_") &&
               std::from_chars(key.data() + 9, key.data() + key.size(), n).ec == std::errc()) {
        p.arguments[n] = std::string(value);
    } else if (key == "PID" && std::from_chars(value.data(), value.data() + value.size(), n).ec == std::errc() &&
               n > 0 && n <= INT32_MAX) {
        p.pid = uint32_t(n);
    }
}

// Each launched process's identity from its recorded environment and command line (nsys 2023.4+).
void readProcessIdentities(const ReadOnlySqlite &db, const std::set<std::string> &tables, ReportMeta &meta)
{
    if (!tables.count("META_DATA_CAPTURE"))
        return;
    std::map<int64_t, LaunchRows> processes;
    RowProblems problems;
    std::string error;
    SqliteStmt s =
        db.prepare("SELECT name, value FROM META_DATA_CAPTURE WHERE name LIKE 'PROCESS\\_%' ESCAPE '\\'", error);
    while (s.get() && s.step()) {
        int64_t index = 0;
        std::string_view key;
        if (splitProcessKey(s.text(0), index, key))
            addLaunchRow(processes[index], key, s.text(0), s.text(1), problems);
    }
    std::vector<std::string> launchProblems;
    for (auto &[index, p] : processes) {
        for (auto &[n, argument] : p.arguments)
            p.commandLine.push_back(std::move(argument));
        const std::string where = "META_DATA_CAPTURE PROCESS_" + std::to_string(index);
        LaunchReading r = launchIdentityOf(p.environment, p.commandLine, where);
        for (std::string &t : r.problems)
            problems.add(std::move(t));
        if (!r.identity.empty())
            meta.processIdentities.push_back({p.pid, where, std::move(r.identity)});
    }
    reportLaunchIdentity(meta.processIdentities, &launchProblems);
    for (std::string &t : launchProblems)
        problems.add(std::move(t));
    problems.into(meta);
}

} // namespace

std::string column(const std::set<std::string> &columns, const char *name, const char *fallback)
{
    return columns.count(name) ? std::string("\"") + name + "\"" : std::string(fallback);
}

SessionClock readReportMetadata(const ReadOnlySqlite &db, const std::set<std::string> &tables, ReportMeta &meta)
{
    SessionClock clock;
    clock.normalizedExport = readExportMetadata(db, tables, meta);
    clock.sessionStartUtc = readSessionStart(db, tables);
    readHostAndGpus(db, tables, meta);
    readProcessIdentities(db, tables, meta);
    return clock;
}

std::string readStringTable(const ReadOnlySqlite &db, const std::set<std::string> &tables, StoreBuilder &b,
                            std::vector<NameId> &strings)
{
    if (!tables.count("StringIds"))
        return {};
    std::string error;
    // Ids are dense from 0 in every export; the table is sized by its largest id, so that id is
    // bounded by the row count (itself bounded by the file's size): one hostile id of 2^28 once
    // asked for a 1 GB table.
    SqliteStmt count = db.prepare("SELECT count(*) FROM StringIds", error);
    if (!count.get())
        return error + " (reading StringIds)";
    const int64_t maxId = (count.step() ? count.int64(0) : 0) * 4 + 65536;
    SqliteStmt s = db.prepare("SELECT id, value FROM StringIds", error);
    if (!s.get())
        return error + " (reading StringIds)";
    while (s.step()) {
        const int64_t id = s.int64(0);
        if (id < 0 || id > maxId)
            continue; // nonsensical id; leave unnamed
        if (size_t(id) >= strings.size())
            strings.resize(size_t(id) + 1, kNoName);
        strings[size_t(id)] = b.intern(s.text(1));
    }
    if (s.stepCode() != SQLITE_DONE)
        return db.lastError() + " (reading StringIds)";
    return {};
}

NameTables readNameTables(const ReadOnlySqlite &db, const std::set<std::string> &tables,
                          const std::vector<NameId> &strings, StoreBuilder &b, ReportMeta &meta)
{
    NameTables names;
    if (tables.count("ThreadNames"))
        readThreadNames(db, strings, b);
    if (tables.count("ProcessStreams"))
        readProcessStreams(db, meta);
    if (tables.count("PROCESSES")) {
        std::string error;
        SqliteStmt s = db.prepare("SELECT pid, name FROM PROCESSES", error);
        while (s.get() && s.step())
            names.processNames[uint32_t(s.int64(0))] = b.intern(s.text(1));
    }
    if (tables.count("NVTX_EVENTS"))
        readNvtxScopeNames(db, strings, b, names);
    return names;
}

} // namespace ps::core::trace::nsys
