#include "views/scene/timelinescene.h"

#include "core/analysis/phases/stepnumbering.h"
#include "core/trace/rangeoccurrences.h"
#include "core/trace/read/identity.h"

#include <QFileInfo>

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace ps::views {

using namespace ps::core::trace;

TimeWindow TimelineScene::extent() const
{
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (size_t i = 0; i < entries.size(); ++i) {
        const TimelineEntry &e = entries[i];
        const PreparedReport &r = *e.report;
        if (r.eventCount() == 0 ||
            (!farIncluded && std::find(farEntries.begin(), farEntries.end(), int(i)) != farEntries.end()))
            continue;
        lo = std::min(lo, r.firstStart() + e.offset);
        hi = std::max(hi, r.lastEnd() + e.offset);
    }
    if (lo > hi)
        return {0, 1};
    return {lo, std::max(hi, lo + 1)};
}

std::vector<int> farClockEntries(const TimelineScene &scene)
{
    std::vector<int> withEvents;
    std::vector<int64_t> starts, spans;
    for (size_t i = 0; i < scene.entries.size(); ++i)
        if (const PreparedReport &r = *scene.entries[i].report; r.eventCount() > 0) {
            withEvents.push_back(int(i));
            starts.push_back(r.firstStart() + scene.entries[i].offset);
            spans.push_back(r.lastEnd() - r.firstStart());
        }
    if (withEvents.size() < 2)
        return {};
    const auto lowerMedian = [](std::vector<int64_t> v) {
        std::nth_element(v.begin(), v.begin() + ptrdiff_t((v.size() - 1) / 2), v.end());
        return v[(v.size() - 1) / 2];
    };
    constexpr int64_t kDayNs = 86'400'000'000'000;
    const int64_t middle = lowerMedian(starts);
    const int64_t reach = std::max(kDayNs, std::min(lowerMedian(spans), kDayNs * 365) * 1000);
    std::vector<int> far;
    for (size_t k = 0; k < withEvents.size(); ++k)
        if (starts[k] < middle - reach || starts[k] + spans[k] > middle + reach)
            far.push_back(withEvents[k]);
    return far.size() * 2 <= withEvents.size() ? far : std::vector<int>{};
}

QStringList runNamesOf(const std::vector<PreparedReportPtr> &reports)
{
    QStringList runs;
    for (const PreparedReportPtr &r : reports)
        if (const QString run = QString::fromStdString(r->report().identity.run); !runs.contains(run))
            runs << run;
    return runs;
}

int TimelineScene::indexOfKey(const QString &key) const
{
    for (size_t i = 0; i < entries.size(); ++i)
        if (entries[i].key == key)
            return int(i);
    return -1;
}

QString reportLabel(const Report &report)
{
    // The identity label names RL workers well ("ActorGroup r3 pid 4242"); a file without a
    // recognised name is better told apart by its file name.
    const ReportIdentity &id = report.identity;
    if (!id.label.empty() && (id.rank || !id.group.empty()))
        return QString::fromStdString(id.label);
    return QFileInfo(QString::fromStdString(report.path)).fileName();
}

namespace {
std::vector<ReportPtr> plainReports(const std::vector<PreparedReportPtr> &reports)
{
    std::vector<ReportPtr> out;
    out.reserve(reports.size());
    for (const auto &p : reports)
        out.push_back(p->reportPtr());
    return out;
}

QString rankText(const GroupNode &g, const RankNode &r)
{
    QString s = g.group.empty() ? QString() : QString::fromStdString(g.group) + QLatin1Char(' ');
    return s + (r.rank ? QStringLiteral("rank %1").arg(*r.rank) : QStringLiteral("unknown rank"));
}
} // namespace

TimelineScene buildScene(const std::vector<PreparedReportPtr> &reports, const std::vector<int64_t> &offsets)
{
    TimelineScene scene;
    const std::vector<ReportPtr> plain = plainReports(reports);
    const std::vector<RunNode> runs = groupReports(plain);
    std::vector<bool> placed(reports.size(), false);
    auto add = [&](size_t i, QStringList path) {
        if (i >= reports.size() || placed[i])
            return;
        placed[i] = true;
        TimelineEntry e;
        e.report = reports[i];
        e.reportIndex = int(i);
        e.offset = i < offsets.size() ? offsets[i] : 0;
        e.label = reportLabel(reports[i]->report());
        e.groupPath = std::move(path);
        e.key = QString::fromStdString(reports[i]->report().path);
        scene.entries.push_back(std::move(e));
    };
    for (const RunNode &run : runs) {
        QStringList base;
        if (!run.run.empty())
            base << QString::fromStdString(run.run);
        for (const GroupNode &g : run.groups) {
            QStringList gp = base;
            if (!g.group.empty())
                gp << QString::fromStdString(g.group);
            for (const RankNode &r : g.ranks) {
                QStringList rp = gp;
                // A rank with several capture ranges gets its own header; a single report names
                // its rank in its own label, which keeps 64-rank runs compact.
                if (r.rank && r.reports.size() > 1)
                    rp << rankText(g, r);
                for (size_t i : r.reports)
                    add(i, rp);
            }
        }
    }
    for (size_t i = 0; i < reports.size(); ++i) // anything the grouping did not place
        add(i, {});
    scene.farEntries = farClockEntries(scene);
    return scene;
}

namespace {
// Run against run: one rank of every open run, stacked at a common origin by the step overlay
// (a candidate's rank drawn under the baseline's). Only ranks that two or more runs have.
void appendCrossRunChoices(const std::vector<RunNode> &runs, std::vector<RankChoice> &out)
{
    if (runs.size() < 2)
        return;
    std::map<std::pair<std::string, int>, RankChoice> byRank; // (group, rank), in order
    std::map<std::pair<std::string, int>, int> runCount;
    for (const RunNode &run : runs)
        for (const GroupNode &g : run.groups)
            for (const RankNode &r : g.ranks) {
                if (!r.rank)
                    continue;
                RankChoice &c = byRank[{g.group, *r.rank}];
                c.label = rankText(g, r) + QStringLiteral(" · runs compared");
                for (size_t i : r.reports)
                    c.reports.push_back(int(i));
                ++runCount[{g.group, *r.rank}];
            }
    for (auto &[key, choice] : byRank)
        if (runCount[key] >= 2)
            out.push_back(std::move(choice));
}
} // namespace

std::vector<RankChoice> rankChoices(const std::vector<PreparedReportPtr> &reports)
{
    std::vector<RankChoice> out;
    const std::vector<RunNode> runs = groupReports(plainReports(reports));
    for (const RunNode &run : runs)
        for (const GroupNode &g : run.groups)
            for (const RankNode &r : g.ranks) {
                RankChoice c;
                c.label = rankText(g, r);
                if (!run.run.empty() && run.run.size() < 40)
                    c.label = QString::fromStdString(run.run) + QStringLiteral(" / ") + c.label;
                for (size_t i : r.reports)
                    c.reports.push_back(int(i));
                out.push_back(std::move(c));
            }
    appendCrossRunChoices(runs, out);
    return out;
}

namespace {
// "NAME#K" -> (NAME, K) with K >= 1; anything else -> (text, 0): every occurrence.
std::pair<QString, int> splitOccurrence(const QString &text)
{
    const int hash = int(text.lastIndexOf(QLatin1Char('#')));
    bool ok = false;
    const int k = hash > 0 ? text.mid(hash + 1).toInt(&ok) : 0;
    if (!ok || k < 1)
        return {text, 0};
    return {text.left(hash), k};
}
} // namespace

TimelineScene buildStepOverlay(const std::vector<PreparedReportPtr> &reports, const RankChoice &rank,
                               const QString &rangeName)
{
    TimelineScene scene;
    scene.overlay = true;
    const auto [bareName, only] = splitOccurrence(rangeName);
    const std::string name = bareName.toStdString();
    int64_t longest = 0;
    std::set<std::string> runs; // a cross-run choice names each report's run
    std::vector<std::string> paths;
    for (int ri : rank.reports)
        if (ri >= 0 && size_t(ri) < reports.size()) {
            runs.insert(reports[size_t(ri)]->report().identity.run);
            paths.push_back(reports[size_t(ri)]->report().path);
        }
    // A range that runs once per profiled step is labelled with the step the run's config names
    // (stepnumbering.h); otherwise by its occurrence, #1, #2, ...
    const std::optional<core::analysis::ProfiledSteps> profiled =
        name.empty() ? std::nullopt : core::analysis::profiledStepsNear(paths);
    for (int ri : rank.reports) {
        if (ri < 0 || size_t(ri) >= reports.size())
            continue;
        const PreparedReportPtr &p = reports[size_t(ri)];
        // Across runs the run comes first: a narrow label column elides the middle of a name.
        const QString run =
            runs.size() > 1 ? QString::fromStdString(p->report().identity.run) + QStringLiteral(" · ") : QString();
        const QString base = run + reportLabel(p->report());
        const QString path = QString::fromStdString(p->report().path);
        if (name.empty()) {
            TimelineEntry e{p, ri, -p->firstStart(), base, {rank.label}, path};
            scene.entries.push_back(std::move(e));
            longest = std::max(longest, p->lastEnd() - p->firstStart());
            continue;
        }
        std::string noSummary; // a digest without a statistics summary has no occurrences to offer
        const auto occ = rangeOccurrencesOf(p->report(), name, noSummary);
        for (size_t k = 0; k < occ.size(); ++k) {
            if (only > 0 && k + 1 != size_t(only))
                continue; // NAME#K: the K-th occurrence of each report
            const std::optional<int64_t> step =
                profiled ? core::analysis::profiledStepOf(*profiled, int64_t(k + 1), int64_t(occ.size()))
                         : std::nullopt;
            const QString which = step ? QStringLiteral(" step %1").arg(*step) : QStringLiteral(" #%1").arg(k + 1);
            TimelineEntry e{p,
                            ri,
                            -occ[k].first,
                            run + bareName + which + QStringLiteral(" · ") + reportLabel(p->report()),
                            {rank.label + QStringLiteral(" · ") + rangeName},
                            path + QStringLiteral("#%1").arg(k + 1)};
            scene.entries.push_back(std::move(e));
            longest = std::max(longest, occ[k].second - occ[k].first);
        }
    }
    if (longest > 0)
        scene.focus = TimeWindow{0, longest};
    return scene;
}

} // namespace ps::views
