#include "views/stats/crossrankdata.h"

#include "core/trace/tracestats.h"
#include "core/trace/tracesummary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

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

// The occurrences of the Range `name` (of `wantStyle`, or any) in one entry's report, as bars of
// `rank`, with their starts.
std::vector<std::pair<int64_t, CrossRankBar>> rangeBars(const TimelineEntry &e, int entry, int rank,
                                                        const std::string &name, const std::string &wantStyle)
{
    std::vector<std::pair<int64_t, CrossRankBar>> found;
    if (e.report->isOutline()) { // a digest without its events: the occurrences it carries
        std::string error;
        if (const auto summary = summaryOf(e.report->report(), kTraceSummary, error))
            for (const RangeSummary &r : summary->ranges)
                if (r.name == name && (wantStyle.empty() || r.style == wantStyle))
                    for (const RangeOccurrence &o : r.occurrences)
                        found.push_back({o.start, CrossRankBar{rank, 0, o.duration, entry, {o.track, o.index}}});
        return found;
    }
    const EventStore &store = e.report->store();
    // The texts the Range can come from: itself (no domain), or what follows "<domain>:" for
    // a domain of this report. Reports without any of them have no bars.
    std::set<std::string_view> texts{name};
    for (const NvtxScope &sc : store.nvtxScopes()) {
        const std::string_view d = store.name(sc.domainName);
        if (!d.empty() && name.size() > d.size() && name.compare(0, d.size(), d) == 0 && name[d.size()] == ':')
            texts.insert(std::string_view(name).substr(d.size() + 1));
    }
    std::vector<bool> candidate(store.names().size(), false);
    bool any = false;
    for (size_t i = 0; i < store.names().size(); ++i)
        if (texts.count(store.names()[NameId(i)]))
            any = candidate[i] = true;
    if (!any)
        return found;
    // Whether (text id, scope) makes up the Range, decided once per pair.
    std::unordered_map<uint64_t, bool> matches;
    auto match = [&](NameId text, uint16_t attr) {
        const uint64_t k = uint64_t(text) << 16 | attr;
        auto m = matches.find(k);
        if (m == matches.end())
            m = matches.emplace(k, nvtxRangeName(store, text, attr) == name).first;
        return m->second;
    };
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
        const Track &t = store.track(ti);
        if (!isRangeKind(t.kind()) || (!wantStyle.empty() && nvtxStyleName(t.kind()) != wantStyle))
            continue;
        for (size_t i = 0; i < t.size(); ++i)
            if (t.name(i) < candidate.size() && candidate[t.name(i)] && match(t.name(i), t.attr(i)))
                found.push_back({t.start(i), CrossRankBar{rank, 0, t.duration(i), entry, {ti, uint32_t(i)}}});
    }
    return found;
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
        std::vector<std::pair<int64_t, CrossRankBar>> found = rangeBars(e, ei, rank, name, wantStyle);
        std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        for (auto &[start, bar] : found) {
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
