// profstudio-cli trace stats: nvtx_sum, kernel_sum, osrt_sum, cuda_api_sum, cuda_gpu_mem_time_sum,
// cuda_gpu_mem_size_sum and compare as a table, CSV or JSON
// (../shared/spec/cli.md, "Trace commands").

#include "core/trace/tracestats.h"

#include "app/cli/cliargs.h"
#include "app/cli/commands.h"
#include "app/cli/texttable.h"
#include "app/cli/traceload.h"
#include "core/common/csvfield.h"
#include "core/common/jsonwriter.h"
#include "core/trace/analysisguard.h"
#include "core/trace/statscsv.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace ps::cli {

namespace {

namespace tr = ps::core::trace;
using ps::core::JsonWriter;

// What `trace stats` was asked for, once its options are checked.
struct StatsRequest
{
    std::string which;  // a statsKindName() or compare
    std::string format; // table, csv or json
    tr::StatsKind kind = tr::StatsKind::NvtxSum;
    size_t top = SIZE_MAX; // rows per section
    bool nvtx() const { return kind == tr::StatsKind::NvtxSum; }
    bool bytes() const { return tr::isByteStats(kind); }
};

// The loaded reports and a report index's path ("" for none), for the writers below.
struct LoadedReports
{
    const std::vector<tr::ReportPtr> &reports;
    std::string path(std::optional<size_t> i) const { return i ? reports[*i]->path : std::string(); }
};

CommandSpec statsSpec()
{
    CommandSpec spec{"profstudio-cli trace stats --report nvtx_sum|kernel_sum|osrt_sum|cuda_api_sum|"
                     "cuda_gpu_mem_time_sum|cuda_gpu_mem_size_sum|compare [options] REPORT...",
                     "Summaries with `nsys stats` semantics (time %, total, count, avg, median, min, max, stddev in "
                     "ns) over all reports and per report: nvtx_sum per range and style (PushPop / StartEnd; the "
                     "range is \"domain:name\" for ranges of a named NVTX domain, and \":name\" for default-domain "
                     "ranges of reports exported by nsys 2024.6, as that release prints them), kernel_sum per "
                     "kernel name (on Ascend: the compute tasks, see trace info's device tasks); osrt_sum per OS "
                     "runtime function, cuda_api_sum per CUDA API (version suffix dropped), "
                     "cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum per memory operation (memcpy kind, "
                     "memset; the size report in MB in the table, bytes in csv and json); `compare` puts "
                     "reports side by side per row and flags the slowest one (the straggler); past 8 reports its "
                     "table shows the min / median / max per row and the slowest instead (csv and json list every "
                     "report). Decimals round "
                     "half away from zero, as nsys stats does.",
                     traceLoadOptions(), "REPORT  a report file, or a folder searched recursively for reports",
                     "Example: profstudio-cli trace stats --report nvtx_sum --top 10 runs/exp1/"};
    spec.options.push_back({"report", "NAME",
                            "nvtx_sum, kernel_sum, osrt_sum, cuda_api_sum, cuda_gpu_mem_time_sum, "
                            "cuda_gpu_mem_size_sum or compare (default nvtx_sum)"});
    spec.options.push_back({"of", "KIND", "for compare: nvtx (default) or kernel"});
    spec.options.push_back({"format", "table|csv|json", "output format (default table)"});
    spec.options.push_back({"top", "N", "at most N rows per section"});
    return spec;
}

// Parses and checks the options. Returns -1 to go on, else the exit status (0 after --help).
int parseStatsRequest(const Args &args, ParsedArgs &a, StatsRequest &req, std::ostream &out, std::ostream &err)
{
    if (int s = parseCommand(statsSpec(), args, a, {"table", "csv", "json"}, req.format, out, err); s >= 0)
        return s;
    req.which = a.value("report", "nvtx_sum");
    const std::optional<tr::StatsKind> kind = tr::statsKindOf(req.which);
    if (!kind && req.which != "compare") {
        err << "error: --report expects nvtx_sum, kernel_sum, osrt_sum, cuda_api_sum, cuda_gpu_mem_time_sum, "
               "cuda_gpu_mem_size_sum or compare, got '"
            << req.which << "'\n";
        return 2;
    }
    const std::string of = a.value("of", "nvtx");
    if (of != "nvtx" && of != "kernel") {
        err << "error: --of expects nvtx or kernel, got '" << of << "'\n";
        return 2;
    }
    const auto top = countArg(a, "top", SIZE_MAX, err);
    if (!top)
        return 2;
    req.top = *top;
    if (kind)
        req.kind = *kind;
    else
        req.kind = of == "kernel" ? tr::StatsKind::KernelSum : tr::StatsKind::NvtxSum;
    return -1;
}

// Column titles for reports side by side: the identity label ("ActorGroup r2 pid 4242") when
// every report has a distinct one, else the file name; a legend maps titles to paths.
std::vector<std::string> shortReportTitles(const std::vector<tr::ReportPtr> &reports)
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

// Past this many reports a column per report no longer fits a terminal: the table summarises
// the spread across reports instead (csv and json keep every report).
constexpr size_t kSideBySideReports = 8;

// One row per range or kernel over many reports: how many have it, the min / median / max of
// their totals, the lag of the slowest over the median and which report it is.
void printSummarisedCompare(std::ostream &out, const std::vector<tr::ReportPtr> &reports,
                            const std::vector<tr::CompareRow> &rows, bool nvtx)
{
    const std::vector<std::string> titles = shortReportTitles(reports);
    TextTable t;
    for (const char *h : {"Reports", "Min (ns)", "Med (ns)", "Max (ns)", "Lag (%)", "Slowest"})
        t.column(h, std::string_view(h) == "Slowest");
    t.nameColumns(nvtx);
    std::set<size_t> named;
    for (const auto &row : rows) {
        std::vector<int64_t> totals;
        for (const auto &c : row.cells)
            if (c.count > 0)
                totals.push_back(c.totalNs);
        std::sort(totals.begin(), totals.end());
        if (totals.empty())
            continue;
        const int64_t median = totals[totals.size() / 2];
        std::vector<std::string> cells{groupedNumber(totals.size()),
                                       groupedNumber(totals.front()),
                                       groupedNumber(median),
                                       groupedNumber(totals.back()),
                                       median > 0 ? fixed1(100.0 * double(totals.back() - median) / double(median))
                                                  : std::string("-"),
                                       row.slowest ? titles[*row.slowest] : std::string("-")};
        if (row.slowest)
            named.insert(*row.slowest);
        TextTable::nameCells(cells, nvtx, row.style, row.name);
        t.rows.push_back(std::move(cells));
    }
    out << "total ns across " << reports.size() << " reports: min / median / max and the slowest (--format csv or "
        << "json lists every report)\n\n";
    t.print(out);
    if (!named.empty() && titles[0] != reports[0]->path) {
        out << "\n";
        for (size_t i : named)
            out << titles[i] << ": " << reports[i]->path << "\n";
    }
}

// Human-readable compare table: total ns per report ('*' = slowest), then Style (nvtx) and the
// Range or kernel name, the way nsys ends its rows with them.
void printCompareTable(std::ostream &out, const std::vector<tr::ReportPtr> &reports,
                       const std::vector<tr::CompareRow> &rows, bool nvtx)
{
    if (reports.size() > kSideBySideReports)
        return printSummarisedCompare(out, reports, rows, nvtx);
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

void writeCompareJson(std::ostream &out, const LoadedReports &loaded, const std::vector<tr::CompareRow> &rows,
                      bool nvtx)
{
    JsonWriter w;
    w.beginObject().key("report").value("compare").key("rows").beginArray();
    for (const auto &row : rows) {
        w.beginObject().key("name").value(row.name);
        if (nvtx)
            w.key("style").value(row.style);
        w.key("reports").beginArray();
        for (const auto &c : row.cells) {
            w.beginObject().key("report").value(loaded.path(c.report)).key("count").value(uint64_t(c.count));
            w.key("total_ns").value(c.totalNs).key("avg_ns").value(c.avgNs).key("time_pct").value(c.timePct);
            w.endObject();
        }
        w.endArray().key("slowest");
        if (row.slowest)
            w.value(loaded.path(row.slowest));
        else
            w.null();
        w.endObject();
    }
    w.endArray().endObject();
    out << w.str() << "\n";
}

void writeCompareCsv(std::ostream &out, const LoadedReports &loaded, const std::vector<tr::CompareRow> &rows, bool nvtx)
{
    out << "name";
    for (const auto &rep : loaded.reports)
        out << ',' << ps::core::csvTextField(rep->path);
    out << ",slowest" << (nvtx ? ",style" : "") << "\n";
    for (const auto &row : rows) {
        out << ps::core::csvTextField(row.name);
        for (const auto &c : row.cells)
            out << ',' << c.totalNs;
        out << ',' << ps::core::csvTextField(loaded.path(row.slowest));
        if (nvtx)
            out << ',' << ps::core::csvTextField(row.style);
        out << "\n";
    }
}

void writeCompare(std::ostream &out, const LoadedReports &loaded, std::vector<tr::CompareRow> rows,
                  const StatsRequest &req)
{
    if (rows.size() > req.top)
        rows.resize(req.top);
    if (req.format == "json")
        writeCompareJson(out, loaded, rows, req.nvtx());
    else if (req.format == "csv")
        writeCompareCsv(out, loaded, rows, req.nvtx());
    else
        printCompareTable(out, loaded.reports, rows, req.nvtx());
}

// The overall rows, then each report's, each section limited to `top` rows.
std::vector<tr::StatRow> topRows(const tr::StatsResult &s, size_t top)
{
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
    return rows;
}

void writeStatsJson(std::ostream &out, const LoadedReports &loaded, const std::vector<tr::StatRow> &rows,
                    const StatsRequest &req)
{
    JsonWriter w;
    w.beginObject().key("report").value(req.which).key("rows").beginArray();
    for (const auto &row : rows) {
        w.beginObject().key("name").value(row.name);
        if (req.nvtx())
            w.key("style").value(row.style);
        w.key("report");
        if (row.report)
            w.value(loaded.path(row.report));
        else
            w.null();
        const std::string unit = req.bytes() ? "_bytes" : "_ns";
        w.key("count").value(uint64_t(row.count)).key("total" + unit).value(row.totalNs);
        w.key("avg" + unit).value(row.avgNs).key("med" + unit).value(row.medNs);
        w.key("min" + unit)
            .value(row.minNs)
            .key("max" + unit)
            .value(row.maxNs)
            .key("stddev" + unit)
            .value(row.stddevNs);
        if (!req.bytes())
            w.key("time_pct").value(row.timePct);
        w.endObject();
    }
    w.endArray().endObject();
    out << w.str() << "\n";
}

void writeStatsCsv(std::ostream &out, const LoadedReports &loaded, const std::vector<tr::StatRow> &rows,
                   const StatsRequest &req)
{
    const tr::StatsCsvColumns columns{true, req.nvtx(), req.bytes()};
    out << tr::statsCsvHeader(columns);
    for (const auto &row : rows)
        out << tr::statsCsvLine(row, columns, row.report ? loaded.path(row.report) : "(all)");
}

// The count column's and the name column's titles, as nsys titles them per report.
std::pair<const char *, const char *> countAndNameTitles(tr::StatsKind kind)
{
    switch (kind) {
    case tr::StatsKind::NvtxSum:
        return {"Instances", "Range"};
    case tr::StatsKind::KernelSum:
        return {"Instances", "Name"};
    case tr::StatsKind::OsrtSum:
    case tr::StatsKind::CudaApiSum:
        return {"Num Calls", "Name"};
    case tr::StatsKind::GpuMemTimeSum:
    case tr::StatsKind::GpuMemSizeSum:
        return {"Count", "Operation"};
    }
    return {"Count", "Name"};
}

// The size report's table: MB (10^6 bytes) with three decimals, as nsys prints it.
void printSizeTable(std::ostream &out, std::span<const tr::StatRow> rows)
{
    TextTable t;
    for (const char *h : {"Total (MB)", "Count", "Avg (MB)", "Med (MB)", "Min (MB)", "Max (MB)", "StdDev (MB)"})
        t.column(h, false);
    t.column("Operation", true);
    const auto mb = [](double bytes) { return megabytesText(bytes); };
    for (const auto &r : rows)
        t.rows.push_back({mb(double(r.totalNs)), groupedNumber(r.count), mb(r.avgNs), mb(r.medNs), mb(double(r.minNs)),
                          mb(double(r.maxNs)), mb(r.stddevNs), r.name});
    t.print(out);
}

// One section of a report in nsys's column order.
void printStatsTable(std::ostream &out, std::span<const tr::StatRow> rows, tr::StatsKind kind)
{
    if (tr::isByteStats(kind))
        return printSizeTable(out, rows);
    const bool nvtx = kind == tr::StatsKind::NvtxSum;
    const auto [countTitle, nameTitle] = countAndNameTitles(kind);
    TextTable t;
    for (const char *h :
         {"Time (%)", "Total Time (ns)", countTitle, "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)", "StdDev (ns)"})
        t.column(h, false);
    if (nvtx)
        t.column("Style", true);
    t.column(nameTitle, true);
    for (const auto &r : rows) {
        std::vector<std::string> cells{fixed1(r.timePct),         groupedNumber(r.totalNs),    groupedNumber(r.count),
                                       groupedNumber(r.avgNs, 1), groupedNumber(r.medNs, 1),   groupedNumber(r.minNs),
                                       groupedNumber(r.maxNs),    groupedNumber(r.stddevNs, 1)};
        TextTable::nameCells(cells, nvtx, r.style, r.name);
        t.rows.push_back(std::move(cells));
    }
    t.print(out);
}

// Sections: all reports, then each report; each in nsys's layout. With one report the two would
// be the same table, so only the report's is printed (json and csv keep both).
void printStatsSections(std::ostream &out, const LoadedReports &loaded, const std::vector<tr::StatRow> &rows,
                        const StatsRequest &req)
{
    const bool oneReport = loaded.reports.size() == 1;
    bool firstSection = true;
    for (size_t i = 0; i < rows.size();) {
        size_t j = i;
        while (j < rows.size() && rows[j].report == rows[i].report)
            ++j;
        if (!(oneReport && !rows[i].report)) {
            out << (firstSection ? "" : "\n")
                << "== " << (rows[i].report ? loaded.path(rows[i].report) : std::string("all reports")) << " ("
                << req.which << ")\n\n";
            firstSection = false;
            printStatsTable(out, std::span(rows).subspan(i, j - i), req.kind);
        }
        i = j;
    }
}

// What an empty table says it did not find.
const char *noRowsText(tr::StatsKind kind)
{
    switch (kind) {
    case tr::StatsKind::NvtxSum:
        return "no NVTX push/pop or start/end ranges";
    case tr::StatsKind::KernelSum:
        return "no kernels";
    case tr::StatsKind::OsrtSum:
        return "no OS runtime calls";
    case tr::StatsKind::CudaApiSum:
        return "no CUDA API calls";
    case tr::StatsKind::GpuMemTimeSum:
    case tr::StatsKind::GpuMemSizeSum:
        return "no CUDA memcpy or memset";
    }
    return "no rows";
}

void writeSummary(std::ostream &out, const LoadedReports &loaded, const tr::StatsResult &s, const StatsRequest &req)
{
    const std::vector<tr::StatRow> rows = topRows(s, req.top);
    if (req.format == "json")
        return writeStatsJson(out, loaded, rows, req);
    if (req.format == "csv")
        return writeStatsCsv(out, loaded, rows, req);
    if (s.overall.empty())
        out << noRowsText(req.kind) << " in the given reports\n";
    printStatsSections(out, loaded, rows, req);
}

} // namespace

int cmdTraceStats(const Args &args, std::ostream &out, std::ostream &err)
{
    ParsedArgs a;
    StatsRequest req;
    if (int s = parseStatsRequest(args, a, req, out, err); s >= 0)
        return s;
    tr::LoadResult r;
    int status = 0;
    if (!loadFromArgs(a, err, r, status))
        return status;
    // A report whose analysis runs out of memory is named and left out; the others go on.
    tr::StatsResult summary;
    std::vector<tr::CompareRow> compared;
    std::vector<std::string> errors;
    tr::analyseReports(r.reports, errors, [&](const std::vector<tr::ReportPtr> &reports) {
        if (req.which == "compare") {
            compared = tr::compareReports(reports, req.kind);
            return;
        }
        tr::SummarizeOptions options;
        options.nsysReleaseNames = true; // the tables read as the exporting nsys's own
        summary = tr::summarize(reports, req.kind, options);
    });
    for (const std::string &p : summary.problems) { // a report that could not answer is named, never zeros
        err << "error: " << p << "\n";
        status = 1;
    }
    for (const std::string &e : errors) {
        err << "error: " << e << "\n";
        status = 1;
    }
    const LoadedReports loaded{r.reports};
    if (req.which == "compare")
        writeCompare(out, loaded, std::move(compared), req);
    else
        writeSummary(out, loaded, summary, req);
    return status;
}

} // namespace ps::cli
