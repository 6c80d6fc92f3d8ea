// profstudio-cli trace info | stats | align (../shared/spec/cli.md, "Trace commands").

#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/traceargs.h"
#include "core/common/jsonwriter.h"
#include "core/trace/alignment.h"
#include "core/trace/tracecache.h"
#include "core/trace/traceloader.h"
#include "core/trace/tracestats.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iomanip>
#include <set>
#include <sstream>

namespace ps::cli {

namespace {

// Column titles for reports side by side: the identity label ("ActorGroup r2 pid 4242") when
// every report has a distinct one, else the file name; a legend maps titles to paths.
std::vector<std::string> shortReportTitles(const std::vector<ps::core::trace::ReportPtr> &reports)
{
    std::vector<std::string> titles;
    std::set<std::string> seen;
    bool unique = true;
    for (const auto &rep : reports) {
        std::string t = rep->identity.label;
        if (t.empty())
            t = std::filesystem::path(rep->path).filename().string();
        unique = unique && seen.insert(t).second;
        titles.push_back(t);
    }
    if (!unique)
        for (size_t i = 0; i < reports.size(); ++i)
            titles[i] = reports[i]->path;
    return titles;
}

// A number with thousands separators, as nsys stats prints them: 1234567 -> "1,234,567";
// `decimals` digits after the point (1 -> "1,234,567.5").
std::string groupedNumber(long double v, int decimals = 0)
{
    std::ostringstream f;
    f << std::fixed << std::setprecision(decimals) << v;
    std::string digits = f.str();
    const size_t sign = digits[0] == '-' ? 1 : 0;
    const size_t point = std::min(digits.find('.'), digits.size());
    for (size_t i = point; i > sign + 3; i -= 3)
        digits.insert(i - 3, 1, ',');
    return digits;
}

std::string fixed1(double v)
{
    std::ostringstream f;
    f << std::fixed << std::setprecision(1) << v;
    return f.str();
}

// A text table laid out as nsys stats does: a header, a dashed rule, right-aligned numbers,
// left-aligned text; two spaces between columns, the last one unpadded.
struct TextTable
{
    std::vector<std::string> headers;
    std::vector<bool> leftAligned;
    std::vector<std::vector<std::string>> rows;

    void column(std::string header, bool left)
    {
        headers.push_back(std::move(header));
        leftAligned.push_back(left);
    }
    // The columns both stats tables end with, as nsys ends its rows: Style (nvtx_sum only), then
    // Range (nvtx_sum) or Name; nameCells() gives a row's cells for them.
    void nameColumns(bool nvtx)
    {
        if (nvtx)
            column("Style", true);
        column(nvtx ? "Range" : "Name", true);
    }
    static void nameCells(std::vector<std::string> &cells, bool nvtx, const std::string &style, const std::string &name)
    {
        if (nvtx)
            cells.push_back(style);
        cells.push_back(name);
    }

    void print(std::ostream &out) const
    {
        std::vector<size_t> width;
        for (const auto &h : headers)
            width.push_back(h.size());
        for (const auto &row : rows)
            for (size_t c = 0; c < row.size() && c < width.size(); ++c)
                width[c] = std::max(width[c], row[c].size());
        auto line = [&](const std::vector<std::string> &cells) {
            std::string l;
            for (size_t c = 0; c < cells.size(); ++c) {
                const size_t fill = width[c] - std::min(width[c], cells[c].size());
                const bool last = c + 1 == cells.size();
                l += c ? "  " : " ";
                if (leftAligned[c])
                    l += cells[c] + (last ? std::string() : std::string(fill, ' '));
                else
                    l += std::string(fill, ' ') + cells[c];
            }
            out << l << "\n";
        };
        line(headers);
        std::vector<std::string> rule;
        for (size_t w : width)
            rule.push_back(std::string(w, '-'));
        line(rule);
        for (const auto &row : rows)
            line(row);
    }
};

// Human-readable compare table: total ns per report ('*' = slowest), then Style (nvtx) and the
// Range or kernel name, the way nsys ends its rows with them.
void printCompareTable(std::ostream &out, const std::vector<ps::core::trace::ReportPtr> &reports,
                       const std::vector<ps::core::trace::CompareRow> &rows, bool nvtx)
{
    const std::vector<std::string> titles = shortReportTitles(reports);
    TextTable t;
    for (const auto &title : titles)
        t.column(title, false);
    t.nameColumns(nvtx);
    for (const auto &row : rows) {
        std::vector<std::string> cells;
        for (size_t i = 0; i < row.cells.size(); ++i)
            cells.push_back(groupedNumber(row.cells[i].totalNs) + (row.slowest == i ? "*" : " "));
        TextTable::nameCells(cells, nvtx, row.style, row.name);
        t.rows.push_back(std::move(cells));
    }
    out << "total ns per report ('*' = slowest)\n\n";
    t.print(out);
    if (titles.size() && titles[0] != reports[0]->path) {
        out << "\n";
        for (size_t i = 0; i < titles.size(); ++i)
            out << titles[i] << ": " << reports[i]->path << "\n";
    }
}

// One section of nvtx_sum / kernel_sum in nsys's column order.
void printStatsTable(std::ostream &out, const std::vector<ps::core::trace::StatRow> &rows, bool nvtx)
{
    TextTable t;
    for (const char *h :
         {"Time (%)", "Total Time (ns)", "Instances", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)", "StdDev (ns)"})
        t.column(h, false);
    t.nameColumns(nvtx);
    for (const auto &r : rows) {
        std::vector<std::string> cells{fixed1(r.timePct),         groupedNumber(r.totalNs),    groupedNumber(r.count),
                                       groupedNumber(r.avgNs, 1), groupedNumber(r.medNs, 1),   groupedNumber(r.minNs),
                                       groupedNumber(r.maxNs),    groupedNumber(r.stddevNs, 1)};
        TextTable::nameCells(cells, nvtx, r.style, r.name);
        t.rows.push_back(std::move(cells));
    }
    t.print(out);
}

} // namespace

namespace tr = ps::core::trace;
using ps::core::JsonWriter;

namespace {

std::vector<OptionSpec> commonOptions()
{
    return {
        {"cache-dir", "DIR", "report cache directory (default: $PROFSTUDIO_CACHE_DIR, $XDG_CACHE_HOME/profstudio)"},
        {"no-cache", "", "neither read nor write the report cache"},
        {"threads", "N", "worker threads (default: all cores)"},
    };
}

std::optional<long long> parseInt(const std::string &s)
{
    long long v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
        return std::nullopt;
    return v;
}

// Loads the positional paths. Failures go to `err`; returns false on bad usage (exit 2).
bool loadFromArgs(const ParsedArgs &a, std::ostream &err, tr::LoadResult &result, int &status)
{
    if (a.positionals().empty()) {
        err << "error: no report given; pass report files or folders\n";
        status = 2;
        return false;
    }
    tr::LoadOptions opt;
    opt.useCache = !a.has("no-cache");
    opt.cacheDir = a.value("cache-dir");
    if (opt.useCache) {
        std::string capProblem; // the default cap is used then; say so rather than ignore it
        opt.cacheMaxBytes = tr::defaultCacheMaxBytes(&capProblem); // parsed once, here
        if (!capProblem.empty())
            err << "warning: " << capProblem << "\n";
    }
    if (a.has("threads")) {
        auto t = parseInt(a.value("threads"));
        if (!t || *t < 1 || *t > 1024) {
            err << "error: --threads expects a positive integer, got '" << a.value("threads") << "'\n";
            status = 2;
            return false;
        }
        opt.threads = int(*t);
    }
    result = tr::loadReports(a.positionals(), opt);
    for (const auto &f : result.failures)
        err << "error: " << f.reason << "\n";
    status = result.failures.empty() ? 0 : 1;
    if (result.reports.empty() && result.failures.empty()) {
        err << "error: no reports found under the given paths (expected nsys .sqlite exports or .nsys-rep, "
               "rocpd/Ascend .db, Kineto .json[.gz])\n";
        status = 1;
    }
    return true;
}

std::string csvQuote(const std::string &s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

struct CountKey
{
    const char *key;
    std::vector<tr::TrackKind> kinds;
};
const std::vector<CountKey> &countKeys()
{
    using K = tr::TrackKind;
    static const std::vector<CountKey> keys = {
        {"kernel", {K::Kernel}},
        {"memcpy", {K::Memcpy}},
        {"memset", {K::Memset}},
        {"sync", {K::Sync}},
        {"api", {K::CudaApi}},
        {"osrt", {K::OsRuntime}},
        {"range", {K::NvtxPushPop, K::NvtxStartEnd}},
        {"mark", {K::NvtxMark}},
    };
    return keys;
}

} // namespace

std::vector<OptionSpec> traceLoadOptions()
{
    return commonOptions();
}
bool loadTraceArgs(const ParsedArgs &a, std::ostream &err, tr::LoadResult &result, int &status)
{
    return loadFromArgs(a, err, result, status);
}
std::string csvField(const std::string &s)
{
    return csvQuote(s);
}

int cmdTraceInfo(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec{"profstudio-cli trace info [options] REPORT...",
                     "Per report: format, exporter version, host, pid, rank and step where known, UTC start, "
                     "duration and event counts per kind.",
                     commonOptions(), "REPORT  a report file, or a folder searched recursively for reports",
                     "Example: profstudio-cli trace info --format json runs/exp1/"};
    spec.options.push_back({"format", "text|json", "output format (default text)"});
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(spec, args, a, {"text", "json"}, format, out, err); s >= 0)
        return s;
    tr::LoadResult r;
    int status = 0;
    if (!loadFromArgs(a, err, r, status))
        return status;

    auto count = [](const tr::Report &rep, const CountKey &k) {
        size_t n = 0;
        for (auto kind : k.kinds)
            n += rep.meta.fileCounts[size_t(kind)];
        return n;
    };
    if (format == "json") {
        JsonWriter w;
        w.beginObject().key("reports").beginArray();
        for (const auto &rep : r.reports) {
            const auto &id = rep->identity;
            w.beginObject();
            w.key("path").value(rep->path);
            w.key("format").value(tr::traceFormatName(rep->meta.format));
            w.key("version").value(rep->meta.exporterVersion);
            w.key("host").value(id.host);
            w.key("pid").value(id.pid ? std::optional<int64_t>(*id.pid) : std::nullopt);
            w.key("group").value(id.group);
            w.key("rank").value(id.rank ? std::optional<int64_t>(*id.rank) : std::nullopt);
            w.key("step").value(id.step ? std::optional<int64_t>(*id.step) : std::nullopt);
            w.key("scope").value(id.scope);
            w.key("world_size").value(id.worldSize ? std::optional<int64_t>(*id.worldSize) : std::nullopt);
            w.key("parallel").value(id.parallel);
            w.key("utc_start_ns").value(rep->meta.utcStartNs);
            w.key("duration_ns").value(int64_t(rep->store->lastEnd() - rep->store->firstStart()));
            w.key("counts").beginObject();
            for (const auto &k : countKeys())
                w.key(k.key).value(uint64_t(count(*rep, k)));
            w.endObject();
            w.key("warnings").beginArray();
            for (const auto &wn : rep->meta.warnings)
                w.value(wn);
            w.endArray();
            w.endObject();
        }
        w.endArray().endObject();
        out << w.str() << "\n";
        return status;
    }
    for (const auto &rep : r.reports) {
        const auto &id = rep->identity;
        out << rep->path << "\n";
        out << "  format " << tr::traceFormatName(rep->meta.format);
        if (!rep->meta.exporterVersion.empty())
            out << " " << rep->meta.exporterVersion;
        if (!rep->meta.schemaVersion.empty())
            out << " (schema " << rep->meta.schemaVersion << ")";
        out << "\n  identity " << (id.label.empty() ? "-" : id.label);
        if (!id.host.empty())
            out << " on " << id.host;
        out << "\n  utc start "
            << (rep->meta.utcStartNs ? std::to_string(*rep->meta.utcStartNs) + " ns" : std::string("none"))
            << ", duration " << (rep->store->lastEnd() - rep->store->firstStart()) << " ns\n  counts";
        for (const auto &k : countKeys())
            out << " " << k.key << "=" << count(*rep, k);
        out << "\n";
        for (const auto &wn : rep->meta.warnings)
            out << "  warning: " << wn << "\n";
    }
    return status;
}

int cmdTraceStats(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec{"profstudio-cli trace stats --report nvtx_sum|kernel_sum|compare [options] REPORT...",
                     "Summaries with `nsys stats` semantics (time %, total, count, avg, median, min, max, stddev in "
                     "ns) over all reports and per report: nvtx_sum per range and style (PushPop / StartEnd; the "
                     "range is \"domain:name\" for ranges of a named NVTX domain), kernel_sum per kernel name; "
                     "`compare` puts reports side by side per row and flags the slowest one (the straggler).",
                     commonOptions(), "REPORT  a report file, or a folder searched recursively for reports",
                     "Example: profstudio-cli trace stats --report nvtx_sum --top 10 runs/exp1/"};
    spec.options.push_back({"report", "NAME", "nvtx_sum, kernel_sum or compare (default nvtx_sum)"});
    spec.options.push_back({"of", "KIND", "for compare: nvtx (default) or kernel"});
    spec.options.push_back({"format", "table|csv|json", "output format (default table)"});
    spec.options.push_back({"top", "N", "at most N rows per section"});
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(spec, args, a, {"table", "csv", "json"}, format, out, err); s >= 0)
        return s;
    const std::string which = a.value("report", "nvtx_sum");
    if (which != "nvtx_sum" && which != "kernel_sum" && which != "compare") {
        err << "error: --report expects nvtx_sum, kernel_sum or compare, got '" << which << "'\n";
        return 2;
    }
    const std::string of = a.value("of", "nvtx");
    if (of != "nvtx" && of != "kernel") {
        err << "error: --of expects nvtx or kernel, got '" << of << "'\n";
        return 2;
    }
    size_t top = SIZE_MAX;
    if (a.has("top")) {
        auto t = parseInt(a.value("top"));
        if (!t || *t < 0) {
            err << "error: --top expects a non-negative integer, got '" << a.value("top") << "'\n";
            return 2;
        }
        top = size_t(*t);
    }
    tr::LoadResult r;
    int status = 0;
    if (!loadFromArgs(a, err, r, status))
        return status;
    const auto kind = (which == "kernel_sum" || (which == "compare" && of == "kernel")) ? tr::StatsKind::KernelSum
                                                                                        : tr::StatsKind::NvtxSum;
    const bool nvtx = kind == tr::StatsKind::NvtxSum;
    auto reportPath = [&](std::optional<size_t> i) { return i ? r.reports[*i]->path : std::string(); };

    if (which == "compare") {
        auto rows = tr::compareReports(r.reports, kind);
        if (rows.size() > top)
            rows.resize(top);
        if (format == "json") {
            JsonWriter w;
            w.beginObject().key("report").value("compare").key("rows").beginArray();
            for (const auto &row : rows) {
                w.beginObject().key("name").value(row.name);
                if (nvtx)
                    w.key("style").value(row.style);
                w.key("reports").beginArray();
                for (const auto &c : row.cells)
                    w.beginObject()
                        .key("report")
                        .value(reportPath(c.report))
                        .key("count")
                        .value(uint64_t(c.count))
                        .key("total_ns")
                        .value(c.totalNs)
                        .key("avg_ns")
                        .value(c.avgNs)
                        .key("time_pct")
                        .value(c.timePct)
                        .endObject();
                w.endArray().key("slowest");
                if (row.slowest)
                    w.value(reportPath(row.slowest));
                else
                    w.null();
                w.endObject();
            }
            w.endArray().endObject();
            out << w.str() << "\n";
            return status;
        }
        if (format == "csv") {
            out << "name";
            for (const auto &rep : r.reports)
                out << ',' << csvQuote(rep->path);
            out << ",slowest" << (nvtx ? ",style" : "") << "\n";
            for (const auto &row : rows) {
                out << csvQuote(row.name);
                for (const auto &c : row.cells)
                    out << ',' << c.totalNs;
                out << ',' << csvQuote(reportPath(row.slowest));
                if (nvtx)
                    out << ',' << row.style;
                out << "\n";
            }
            return status;
        }
        printCompareTable(out, r.reports, rows, nvtx);
        return status;
    }

    const tr::StatsResult s = tr::summarize(r.reports, kind);
    // Limit each section (overall, and each report) to `top` rows.
    std::vector<tr::StatRow> rows;
    for (size_t i = 0; i < s.overall.size() && i < top; ++i)
        rows.push_back(s.overall[i]);
    std::optional<size_t> cur;
    size_t inSection = 0;
    for (const auto &row : s.perReport) {
        if (row.report != cur) {
            cur = row.report;
            inSection = 0;
        }
        if (inSection++ < top)
            rows.push_back(row);
    }
    if (format == "json") {
        JsonWriter w;
        w.beginObject().key("report").value(which).key("rows").beginArray();
        for (const auto &row : rows) {
            w.beginObject().key("name").value(row.name);
            if (nvtx)
                w.key("style").value(row.style);
            w.key("report");
            if (row.report)
                w.value(reportPath(row.report));
            else
                w.null();
            w.key("count").value(uint64_t(row.count)).key("total_ns").value(row.totalNs);
            w.key("avg_ns").value(row.avgNs).key("med_ns").value(row.medNs);
            w.key("min_ns").value(row.minNs).key("max_ns").value(row.maxNs).key("stddev_ns").value(row.stddevNs);
            w.key("time_pct").value(row.timePct);
            w.endObject();
        }
        w.endArray().endObject();
        out << w.str() << "\n";
        return status;
    }
    if (format == "csv") {
        // New columns go last, so that scripts reading the older columns by position keep working.
        out << "report,name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct" << (nvtx ? ",style" : "")
            << "\n";
        for (const auto &row : rows) {
            out << csvQuote(row.report ? reportPath(row.report) : "(all)") << "," << csvQuote(row.name) << ","
                << row.count << "," << row.totalNs << "," << fixed1(row.avgNs) << "," << fixed1(row.medNs) << ","
                << row.minNs << "," << row.maxNs << "," << fixed1(row.stddevNs) << "," << fixed1(row.timePct);
            if (nvtx)
                out << "," << row.style;
            out << "\n";
        }
        return status;
    }
    if (s.overall.empty())
        out << (nvtx ? "no NVTX push/pop or start/end ranges" : "no kernels") << " in the given reports\n";
    // Sections: all reports, then each report; each in nsys's layout. With one report the two
    // would be the same table, so only the report's is printed (json and csv keep both).
    const bool oneReport = r.reports.size() == 1;
    bool firstSection = true;
    for (size_t i = 0; i < rows.size();) {
        size_t j = i;
        while (j < rows.size() && rows[j].report == rows[i].report)
            ++j;
        if (oneReport && !rows[i].report) {
            i = j;
            continue;
        }
        out << (firstSection ? "" : "\n")
            << "== " << (rows[i].report ? reportPath(rows[i].report) : std::string("all reports")) << " (" << which
            << ")\n\n";
        firstSection = false;
        printStatsTable(
            out, std::vector<tr::StatRow>(rows.begin() + std::ptrdiff_t(i), rows.begin() + std::ptrdiff_t(j)), nvtx);
        i = j;
    }
    return status;
}

int cmdTraceAlign(const Args &args, std::ostream &out, std::ostream &err)
{
    CommandSpec spec{"profstudio-cli trace align [--by utc|start|range:NAME[#K]] [options] REPORT...",
                     "Per report, the offset added to its own timestamps to put it on the shared time axis, and "
                     "the residual spread of the anchor (clock skew).",
                     commonOptions(), "REPORT  a report file, or a folder searched recursively for reports",
                     "Examples:\n  profstudio-cli trace align --by utc runs/exp1/\n"
                     "  profstudio-cli trace align --by 'range:actor/compute_adv#2' runs/exp1/"};
    spec.options.push_back({"by", "MODE", "utc (default), start, manual or range:NAME[#K]"});
    spec.options.push_back({"anchor", "NAME[#K]", "with utc/start: report the spread of this NVTX range's start"});
    spec.options.push_back({"offset", "PATH=NS", "manual offset added for one report (repeatable)", true});
    spec.options.push_back({"format", "text|json", "output format (default text)"});
    ParsedArgs a;
    std::string format;
    if (int s = parseCommand(spec, args, a, {"text", "json"}, format, out, err); s >= 0)
        return s;
    std::string error;
    auto spec2 = tr::parseAlignSpec(a.value("by", "utc"), error);
    if (!spec2) {
        err << "error: --by: " << error << "\n";
        return 2;
    }
    if (a.has("anchor") && spec2->mode != tr::AlignMode::Range) {
        auto anchor = tr::parseAlignSpec("range:" + a.value("anchor"), error);
        if (!anchor) {
            err << "error: --anchor: " << error << "\n";
            return 2;
        }
        spec2->anchor = anchor->anchor;
    }
    std::vector<std::pair<std::string, int64_t>> manual;
    for (const auto &o : a.values("offset")) {
        const size_t eq = o.rfind('=');
        auto v = eq == std::string::npos ? std::nullopt : parseInt(o.substr(eq + 1));
        if (!v) {
            err << "error: --offset expects PATH=NS, got '" << o << "'\n";
            return 2;
        }
        manual.emplace_back(o.substr(0, eq), *v);
    }
    tr::LoadResult r;
    int status = 0;
    if (!loadFromArgs(a, err, r, status))
        return status;
    spec2->manualOffsets.assign(r.reports.size(), 0);
    for (const auto &[path, ns] : manual) {
        bool found = false;
        for (size_t i = 0; i < r.reports.size(); ++i)
            if (r.reports[i]->path == path) {
                spec2->manualOffsets[i] += ns;
                found = true;
            }
        if (!found) {
            err << "error: --offset names '" << path << "', which is not among the loaded reports\n";
            return 2;
        }
    }
    const tr::AlignResult res = tr::alignReports(r.reports, *spec2);
    std::string by = tr::alignSpecText(*spec2);
    if (format == "json") {
        JsonWriter w;
        w.beginObject().key("by").value(by).key("used").value(tr::alignSpecText({res.used, spec2->anchor, {}}));
        w.key("reports").beginArray();
        for (size_t i = 0; i < r.reports.size(); ++i)
            w.beginObject().key("path").value(r.reports[i]->path).key("offset_ns").value(res.offsets[i]).endObject();
        w.endArray().key("residual_ns").value(res.residualNs).key("warnings").beginArray();
        for (const auto &wn : res.warnings)
            w.value(wn);
        w.endArray().endObject();
        out << w.str() << "\n";
    } else {
        out << "aligned by " << by;
        if (res.used != spec2->mode)
            out << " (fell back to " << tr::alignSpecText({res.used, spec2->anchor, {}}) << ")";
        out << "\n";
        for (size_t i = 0; i < r.reports.size(); ++i)
            out << std::setw(22) << res.offsets[i] << " ns  " << r.reports[i]->path << "\n";
        out << "residual: " << (res.residualNs ? std::to_string(*res.residualNs) + " ns" : std::string("n/a")) << "\n";
    }
    for (const auto &wn : res.warnings)
        err << "warning: " << wn << "\n";
    return status;
}

} // namespace ps::cli
