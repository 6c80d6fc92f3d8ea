#include "views/stats/crossrankdata.h"

#include "core/trace/rangeoccurrences.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace ps::views {

using namespace ps::core::trace;

const CrossRankBar *CrossRankData::bar(int rank, int step) const
{
    for (const CrossRankBar &b : bars)
        if (b.rank == rank && b.step == step)
            return &b;
    return nullptr;
}

namespace {

// The occurrences of the Range `name` (as nvtx_sum names it, of `wantStyle` or any) in one
// entry's report, in start order, as bars of `rank`.
std::vector<CrossRankBar> rangeBars(const TimelineEntry &e, int entry, int rank, const std::string &name,
                                    const std::string &wantStyle)
{
    std::string error; // an outline without a statistics summary has no bars, as a report without the range
    std::vector<CrossRankBar> bars;
    for (const RangeHit &h : findRanges(e.report->report(), {name, RangeNaming::Qualified, wantStyle}, error))
        bars.push_back(CrossRankBar{rank, 0, h.end - h.start, entry, h.event});
    return bars;
}

// Per occurrence index: "step N" when all its bars come from reports of profiled step N, one
// occurrence per report; "#k" otherwise.
QStringList stepLabels(const TimelineScene &scene, const CrossRankData &d)
{
    std::map<int, int> barsPerEntry;
    for (const CrossRankBar &b : d.bars)
        ++barsPerEntry[b.entry];
    QStringList labels;
    for (int s = 0; s < d.steps; ++s) {
        std::optional<int> step;
        bool same = true;
        for (const CrossRankBar &b : d.bars) {
            if (b.step != s)
                continue;
            const auto &id = scene.entries[size_t(b.entry)].report->report().identity;
            same = same && id.step && barsPerEntry[b.entry] == 1 && (!step || *step == *id.step);
            step = id.step;
        }
        labels << (same && step ? QStringLiteral("step %1").arg(*step) : QStringLiteral("#%1").arg(s + 1));
    }
    return labels;
}

} // namespace

CrossRankData crossRankData(const TimelineScene &scene, const QString &rangeName, const QString &style,
                            const std::vector<int> &entries)
{
    std::vector<int> all = entries;
    if (all.empty())
        for (size_t i = 0; i < scene.entries.size(); ++i)
            all.push_back(int(i));
    CrossRankData out;
    out.name = rangeName;
    out.style = style;
    const std::string name = rangeName.toStdString();
    const std::string wantStyle = style.toStdString();
    // Rank key: (run, group, rank) when the identity has a rank, else the report itself. Two
    // runs' rank 3 are two bars: the longest is named within its own run. With several runs
    // open, labels name the run.
    std::set<std::string> runs;
    for (int ei : all)
        runs.insert(scene.entries[size_t(ei)].report->report().identity.run);
    if (runs.size() == 1)
        out.run = QString::fromStdString(*runs.begin());
    std::map<QString, int> rankIndex;
    std::vector<int> stepsSoFar;
    for (const int ei : all) {
        const TimelineEntry &e = scene.entries[size_t(ei)];
        const ReportIdentity &id = e.report->report().identity;
        const QString run = QString::fromStdString(id.run);
        const QString key = id.rank
                                ? QStringLiteral("%1|%2|%3").arg(run, QString::fromStdString(id.group)).arg(*id.rank)
                                : QStringLiteral("report|") + e.key;
        auto it = rankIndex.find(key);
        if (it == rankIndex.end()) {
            it = rankIndex.emplace(key, int(out.ranks.size())).first;
            const QString rankLabel = id.rank ? QStringLiteral("rank %1").arg(*id.rank) : e.label;
            out.ranks << (runs.size() > 1 && id.rank ? run + QStringLiteral(" ") + rankLabel : rankLabel);
            out.totals.push_back(0);
            stepsSoFar.push_back(0);
        }
        const int rank = it->second;
        for (CrossRankBar &bar : rangeBars(e, ei, rank, name, wantStyle)) {
            bar.step = stepsSoFar[size_t(rank)]++;
            out.totals[size_t(rank)] += bar.durationNs;
            out.bars.push_back(bar);
        }
    }
    std::stable_sort(out.bars.begin(), out.bars.end(), [](const CrossRankBar &a, const CrossRankBar &b) {
        return a.rank != b.rank ? a.rank < b.rank : a.step < b.step;
    });
    for (int s : stepsSoFar)
        out.steps = std::max(out.steps, s);
    out.stepLabels = stepLabels(scene, out);
    if (!out.bars.empty())
        out.longest = int(std::max_element(out.totals.begin(), out.totals.end()) - out.totals.begin());
    return out;
}

} // namespace ps::views

namespace ps::views {

CrossRankData perRankTotals(const CrossRankData &d)
{
    CrossRankData out = d;
    out.bars.clear();
    out.steps = d.isEmpty() ? 0 : 1;
    out.stepLabels = {QStringLiteral("total of %1 occurrences").arg(d.steps)};
    for (int r = 0; r < int(d.ranks.size()); ++r) {
        const CrossRankBar *longest = nullptr;
        for (const CrossRankBar &b : d.bars)
            if (b.rank == r && (!longest || b.durationNs > longest->durationNs))
                longest = &b;
        if (longest)
            out.bars.push_back({r, 0, d.totals[size_t(r)], longest->entry, longest->ref});
    }
    return out;
}

namespace {

double quantile(const std::vector<double> &sorted, double q)
{
    const double pos = q * double(sorted.size() - 1);
    const size_t lo = size_t(pos);
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - double(lo));
}

} // namespace

std::vector<CrossRankBox> crossRankBoxes(const CrossRankData &d)
{
    std::vector<CrossRankBox> boxes;
    for (int s = 0; s < d.steps; ++s) {
        std::vector<int> bars;
        std::vector<double> values;
        for (size_t i = 0; i < d.bars.size(); ++i)
            if (d.bars[i].step == s) {
                bars.push_back(int(i));
                values.push_back(double(d.bars[i].durationNs));
            }
        if (values.empty())
            continue;
        std::sort(values.begin(), values.end());
        CrossRankBox b;
        b.step = s;
        b.q1 = quantile(values, 0.25);
        b.median = quantile(values, 0.5);
        b.q3 = quantile(values, 0.75);
        const double fence = 1.5 * (b.q3 - b.q1);
        b.min = b.q1;
        b.max = b.q3;
        for (int i : bars) {
            const double v = double(d.bars[size_t(i)].durationNs);
            if (v < b.q1 - fence || v > b.q3 + fence) {
                b.outliers.push_back(i);
                continue;
            }
            b.min = std::min(b.min, v);
            b.max = std::max(b.max, v);
        }
        std::sort(b.outliers.begin(), b.outliers.end(), [&](int x, int y) {
            return std::abs(double(d.bars[size_t(x)].durationNs) - b.median) >
                   std::abs(double(d.bars[size_t(y)].durationNs) - b.median);
        });
        boxes.push_back(std::move(b));
    }
    return boxes;
}

} // namespace ps::views
