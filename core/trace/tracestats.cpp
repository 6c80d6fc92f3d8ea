#include "core/trace/tracestats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace ps::core::trace {

namespace {

bool counts(StatsKind kind, TrackKind t)
{
    return kind == StatsKind::NvtxSum ? isRangeKind(t) : t == TrackKind::Kernel;
}

// Durations per name of one report.
std::map<std::string, std::vector<int64_t>> durationsByName(const EventStore &store, StatsKind kind)
{
    std::unordered_map<NameId, std::vector<int64_t>> byId;
    for (const Track &t : store.tracks()) {
        if (!counts(kind, t.kind()))
            continue;
        for (size_t i = 0; i < t.size(); ++i)
            byId[t.name(i)].push_back(t.duration(i));
    }
    std::map<std::string, std::vector<int64_t>> out;
    for (auto &[id, d] : byId) {
        auto &dst = out[std::string(store.name(id))];
        if (dst.empty())
            dst = std::move(d);
        else
            dst.insert(dst.end(), d.begin(), d.end());
    }
    return out;
}

StatRow statRow(const std::string &name, std::optional<size_t> report, std::vector<int64_t> &d)
{
    StatRow r;
    r.name = name;
    r.report = report;
    r.count = d.size();
    if (d.empty())
        return r;
    std::sort(d.begin(), d.end());
    long double sum = 0;
    for (int64_t v : d)
        sum += v;
    r.totalNs = int64_t(sum);
    r.avgNs = double(sum / d.size());
    const size_t m = d.size() / 2;
    r.medNs = d.size() % 2 ? double(d[m]) : (double(d[m - 1]) + double(d[m])) / 2.0;
    r.minNs = d.front();
    r.maxNs = d.back();
    if (d.size() > 1) {
        long double sq = 0;
        for (int64_t v : d)
            sq += (v - (long double)r.avgNs) * (v - (long double)r.avgNs);
        r.stddevNs = double(std::sqrt(sq / (d.size() - 1)));
    }
    return r;
}

void orderByTotal(std::vector<StatRow> &rows)
{
    std::stable_sort(rows.begin(), rows.end(), [](const StatRow &a, const StatRow &b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
}

} // namespace

StatsResult summarize(std::span<const ReportPtr> reports, StatsKind kind)
{
    StatsResult out;
    std::map<std::string, std::vector<int64_t>> all;
    for (size_t ri = 0; ri < reports.size(); ++ri) {
        auto per = durationsByName(*reports[ri]->store, kind);
        std::vector<StatRow> rows;
        for (auto &[name, d] : per) {
            auto &dst = all[name];
            dst.insert(dst.end(), d.begin(), d.end());
            rows.push_back(statRow(name, ri, d));
        }
        orderByTotal(rows);
        out.perReport.insert(out.perReport.end(), rows.begin(), rows.end());
    }
    for (auto &[name, d] : all)
        out.overall.push_back(statRow(name, std::nullopt, d));
    orderByTotal(out.overall);
    return out;
}

std::vector<CompareRow> compareReports(std::span<const ReportPtr> reports, StatsKind kind)
{
    const StatsResult s = summarize(reports, kind);
    std::map<std::string, size_t> rowOf;
    std::vector<CompareRow> out;
    for (const StatRow &o : s.overall) {
        rowOf[o.name] = out.size();
        CompareRow row;
        row.name = o.name;
        for (size_t ri = 0; ri < reports.size(); ++ri) {
            StatRow empty;
            empty.name = o.name;
            empty.report = ri;
            row.cells.push_back(empty);
        }
        out.push_back(std::move(row));
    }
    for (const StatRow &p : s.perReport)
        out[rowOf[p.name]].cells[*p.report] = p;
    for (CompareRow &row : out) {
        for (size_t ri = 0; ri < row.cells.size(); ++ri)
            if (row.cells[ri].count > 0 && (!row.slowest || row.cells[ri].totalNs > row.cells[*row.slowest].totalNs))
                row.slowest = ri;
    }
    return out;
}

} // namespace ps::core::trace
