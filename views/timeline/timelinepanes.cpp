#include "views/timeline/timelinepanes.h"

#include "core/trace/tracestats.h"
#include "views/common/layoutmemory.h"
#include "views/overview/clusteroverview.h"
#include "views/scene/runanalyses.h"
#include "views/stats/breakdownpane.h"
#include "views/stats/comparepane.h"
#include "views/stats/phasespane.h"
#include "views/stats/statspane.h"
#include "views/timeline/collectivewiring.h"
#include "views/timeline/detailsdock.h"
#include "views/timeline/detailspane.h"
#include "views/timeline/memorywiring.h"
#include "views/timeline/overviewcontroller.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelinedocument.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/timelineviewstate.h"

#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <numeric>

namespace ps::views {

using namespace ps::core::trace;

TimelinePanes::TimelinePanes(TimelineDocument *document, QWidget *parent)
    : QSplitter(Qt::Vertical, parent), m_doc(document)
{
    setObjectName(QStringLiteral("timelinePanes"));
    auto *hsplit = new QSplitter(Qt::Horizontal, this);
    // A large run's cluster overview above the timeline (overviewcontroller.h).
    auto *overviewSplit = new QSplitter(Qt::Vertical, hsplit);
    m_view = new TimelineView(document, overviewSplit);
    m_dock = new DetailsDock(hsplit);
    m_details = m_dock->pane();
    hsplit->addWidget(overviewSplit);
    hsplit->addWidget(m_dock);
    hsplit->setStretchFactor(0, 1);
    hsplit->setCollapsible(1, false); // it folds into its strip instead
    // Below the timeline: the statistics of the visible window, and the RL phase table.
    m_tabs = new QTabWidget(this);
    m_stats = new StatsPane(m_tabs);
    m_phases = new PhasesPane(m_tabs);
    m_tabs->addTab(m_stats, QStringLiteral("Statistics"));
    m_tabs->addTab(m_phases, QStringLiteral("RL Phases"));
    m_breakdown = new BreakdownPane(m_phases, m_tabs);
    m_tabs->addTab(m_breakdown, QStringLiteral("Breakdown"));
    m_overview = new OverviewController(m_view->canvas(), m_phases, overviewSplit);
    overviewSplit->insertWidget(0, m_overview->overview());
    m_compare = new ComparePane(m_tabs);
    m_tabs->addTab(m_compare, QStringLiteral("Compare Runs"));
    m_collectives = addCollectivesTab(m_tabs, m_view->canvas(), m_details);
    // One matching of the scene's collectives for the RL Phases, Breakdown and Collectives panes.
    m_runAnalyses = new RunAnalysesJob(this);
    m_phases->setRunJob(m_runAnalyses);
    m_collectives->setRunJob(m_runAnalyses);
    m_memory = addMemoryTab(m_tabs, m_view->canvas());
    addWidget(hsplit);
    addWidget(m_tabs);
    setStretchFactor(0, 1); // a taller window gives the timeline the height, the tables keep theirs
    setStretchFactor(1, 0);
    rememberLayout(hsplit, overviewSplit);
    m_statsDebounce = new QTimer(this);
    m_statsDebounce->setSingleShot(true);
    m_statsDebounce->setInterval(100);
    connectPanes();
}

// The defaults leave the timeline most of a laptop's height (the tabs below keep a table's
// few rows) and the details a fifth of the width; what the user drags is kept per screen size.
void TimelinePanes::rememberLayout(QSplitter *hsplit, QSplitter *overviewSplit)
{
    LayoutMemory::rememberSplitter(this, QStringLiteral("timeline.panes"), [](int length, QSize screen) {
        const int tabs = screen.height() < 900 ? length / 4 : length * 3 / 10;
        return QList<int>{length - tabs, tabs};
    });
    LayoutMemory::rememberSplitter(hsplit, QStringLiteral("timeline.details"), [](int length, QSize screen) {
        const int details = std::clamp(length / 5, 220, screen.width() < 1600 ? 260 : 320);
        return QList<int>{length - details, details};
    });
    // A large run's overview: a pixel row per rank or less, above the timeline's expanded ranks.
    LayoutMemory::rememberSplitter(overviewSplit, QStringLiteral("timeline.overview"), [](int length, QSize screen) {
        const int overview = screen.height() < 900 ? length * 3 / 10 : length * 2 / 5;
        return QList<int>{overview, length - overview};
    });
}

TimelineCanvas *TimelinePanes::canvas() const
{
    return m_view->canvas();
}

void TimelinePanes::connectPanes()
{
    TimelineCanvas *c = canvas();
    connect(c, &TimelineCanvas::selectionChanged, this, &TimelinePanes::updateDetails);
    // The details say times as the axis does: dates in UTC mode, relative otherwise.
    connect(c->state(), &TimelineViewState::wallClockOriginChanged, this, &TimelinePanes::updateDetails);
    connect(c, &TimelineCanvas::selectionChanged, this, &TimelinePanes::selectInPanes);
    connect(c, &TimelineCanvas::selectionChanged, m_statsDebounce, qOverload<>(&QTimer::start)); // the run may change
    connect(c, &TimelineCanvas::windowChanged, m_statsDebounce, qOverload<>(&QTimer::start));
    connect(m_statsDebounce, &QTimer::timeout, this, &TimelinePanes::updateStatsInput);
    connect(m_details, &DetailsPane::jumpToCorrelated, this, [c](EventRef ref) {
        if (auto s = c->selection())
            c->reveal({s->entry, ref});
    });
    // While reports load, the overview's straggler is of those read so far: provisional.
    connect(m_doc, &TimelineDocument::loadStarting, m_overview, [this] { m_overview->setLoading(true); });
    connect(m_doc, &TimelineDocument::loadFinished, m_overview, [this] { m_overview->setLoading(false); });
    connect(m_details, &DetailsPane::nudgeEdited, m_doc,
            [this](int report, qint64 ns) { m_doc->setNudge(report, ns); });
    connect(m_stats, &StatsPane::jumpTo, this, [c](int entry, EventRef ref) { c->reveal({entry, ref}); });
    connect(m_stats, &StatsPane::busyChanged, this, &TimelinePanes::busyChanged);
    connect(m_overview->overview(), &ClusterOverview::busyChanged, this, &TimelinePanes::busyChanged);
    connect(m_phases, &PhasesPane::busyChanged, this, &TimelinePanes::busyChanged);
    connect(m_compare, &ComparePane::busyChanged, this, &TimelinePanes::busyChanged);
    connect(m_breakdown, &BreakdownPane::busyChanged, this, &TimelinePanes::busyChanged);
    connect(m_collectives, &CollectivesPane::busyChanged, this, &TimelinePanes::busyChanged);
    connect(m_memory, &MemoryBlocksPane::busyChanged, this, &TimelinePanes::busyChanged);
}

void TimelinePanes::refresh()
{
    updateDetails();
    updateStatsInput();
}

bool TimelinePanes::isBusy() const
{
    return m_stats->isBusy() || m_phases->isBusy() || m_compare->isBusy() || m_overview->isBusy() ||
           m_breakdown->isBusy() || m_collectives->isBusy() || m_memory->isBusy() || m_statsDebounce->isActive();
}

void TimelinePanes::flushDeferred()
{
    if (m_statsDebounce->isActive()) {
        m_statsDebounce->stop();
        updateStatsInput();
    }
    m_stats->flushDeferred();
}

void TimelinePanes::updateDetails()
{
    const auto s = canvas()->selection();
    const TimelineScene *scene = m_doc->scene().get();
    if (!s || !scene || s->entry < 0 || size_t(s->entry) >= scene->entries.size()) {
        m_details->clear();
        m_dock->refreshStrip();
        return;
    }
    const TimelineEntry &e = scene->entries[size_t(s->entry)];
    m_details->showDetails(&e, s->ref, m_doc->nudge(e.reportIndex), canvas()->state()->wallClockOrigin());
    m_dock->refreshStrip();
}

// An event selected in the timeline is selected in the other views too: its range or kernel in
// the statistics (whose cross-rank chart then shows it), the phase it ran in in the phase table.
void TimelinePanes::selectInPanes()
{
    const auto sel = canvas()->selection();
    const TimelineScene *scene = m_doc->scene().get();
    if (!sel || !scene || sel->entry < 0 || size_t(sel->entry) >= scene->entries.size())
        return;
    const EventStore &store = scene->entries[size_t(sel->entry)].report->store();
    const Track &t = store.track(sel->ref.track);
    const size_t i = sel->ref.index;
    if (isRangeKind(t.kind())) {
        m_stats->selectName(QString::fromStdString(nvtxRangeName(store, t.name(i), t.attr(i))), StatsKind::NvtxSum);
    } else if (t.kind() == TrackKind::Kernel) { // kernel_sum lists the full name, not the short one
        const std::string_view name = store.name(t.name(i));
        m_stats->selectName(QString::fromUtf8(name.data(), qsizetype(name.size())), StatsKind::KernelSum);
    }
    m_phases->selectAt(sel->entry, t.start(i));
}

// Statistics never mix runs: with several runs on screen they cover the run of the selected
// event, else the first one, and say so.
std::vector<int> TimelinePanes::entriesOfOneRun(const std::vector<int> &entries)
{
    const TimelineScene &scene = *m_doc->scene();
    const auto runOf = [&scene](int e) -> const std::string & {
        return scene.entries[size_t(e)].report->report().identity.run;
    };
    std::vector<std::string> runs; // in screen order
    for (int e : entries)
        if (std::find(runs.begin(), runs.end(), runOf(e)) == runs.end())
            runs.push_back(runOf(e));
    if (runs.size() < 2) {
        m_stats->setScopeNote({});
        return entries;
    }
    std::string chosen = runs.front();
    if (const auto s = canvas()->selection(); s && s->entry >= 0 && size_t(s->entry) < scene.entries.size())
        if (std::find(runs.begin(), runs.end(), runOf(s->entry)) != runs.end())
            chosen = runOf(s->entry);
    std::vector<int> mine;
    for (int e : entries)
        if (runOf(e) == chosen)
            mine.push_back(e);
    m_stats->setScopeNote(QStringLiteral("run %1 (%2 runs open: select an event of another run to see its "
                                         "statistics)")
                              .arg(QString::fromStdString(chosen))
                              .arg(runs.size()));
    return mine;
}

void TimelinePanes::updateStatsInput()
{
    m_compare->setInput(m_doc->reports()); // every open run, whatever the timeline and statistics show
    const std::shared_ptr<const TimelineScene> scene = m_doc->scene();
    if (!scene) {
        m_stats->setInput(nullptr, {}, {});
        m_phases->setInput(nullptr, {});
        m_collectives->setInput(nullptr, {});
        return;
    }
    // Every report of the scene (the Show filter and the step overlay choose the scene): folding
    // rows away is a matter of display and never changes the numbers.
    std::vector<int> entries(scene->entries.size());
    std::iota(entries.begin(), entries.end(), 0);
    entries = entriesOfOneRun(entries);
    m_phases->setInput(scene, entries);
    m_collectives->setInput(scene, entries);
    m_stats->setWallClockOrigin(canvas()->state()->wallClockOrigin()); // the summary's dates, as the axis
    m_stats->setInput(scene, std::move(entries), canvas()->window());
}

} // namespace ps::views
