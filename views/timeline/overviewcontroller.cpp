#include "views/timeline/overviewcontroller.h"

#include "views/overview/clusteroverview.h"
#include "views/overview/gotorank.h"
#include "views/overview/overviewstrip.h"
#include "views/stats/phasespane.h"
#include "views/timeline/ranknavigator.h"
#include "views/timeline/timelinecanvas.h"

#include <QAction>
#include <QStyle>

namespace ps::views {

OverviewController::OverviewController(TimelineCanvas *canvas, PhasesPane *phases, QWidget *overviewParent)
    : QObject(canvas), m_canvas(canvas), m_phases(phases), m_overview(new ClusterOverview(overviewParent)),
      m_navigator(new RankNavigator(canvas))
{
    m_overview->setObjectName(QStringLiteral("clusterOverview"));
    m_overview->hide();
    m_overview->setLabelWidth(canvas->lanesLeft());
    m_overview->strip()->setRightMargin(canvas->style()->pixelMetric(QStyle::PM_ScrollBarExtent)); // the view's bar
    connect(canvas, &TimelineCanvas::windowChanged, m_overview, &ClusterOverview::setWindow);
    connect(canvas, &TimelineCanvas::labelWidthChanged, m_overview, &ClusterOverview::setLabelWidth);
    connect(m_overview, &ClusterOverview::entryActivated, this,
            [this](int entry, qint64 ns) { m_navigator->goTo(entry, ns); });
    connect(m_overview, &ClusterOverview::goToRankRequested, this, &OverviewController::askForRank);
    connect(phases, &PhasesPane::tableShown, this, &OverviewController::phasesShown);
    // A phase-table cell: the rank's report paged in if it is a digest, then the phase selected.
    connect(phases, &PhasesPane::jumpTo, this,
            [this](int entry, core::trace::EventRef ref) { m_navigator->goTo(entry, std::nullopt, ref); });
    m_goTo = new QAction(QStringLiteral("&Go to Rank…"), this);
    m_goTo->setObjectName(QStringLiteral("goToRank"));
    m_goTo->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    connect(m_goTo, &QAction::triggered, this, &OverviewController::askForRank);
}

void OverviewController::setScene(const std::shared_ptr<const TimelineScene> &scene)
{
    m_scene = scene;
    const bool large = scene && !scene->overlay && scene->entries.size() > ClusterOverview::kShowAbove;
    m_overview->setVisible(large);
    m_overview->setScene(large ? scene : nullptr);
    if (large)
        phasesShown();
    m_goTo->setEnabled(scene && !scene->entries.empty());
    m_navigator->sceneChanged();
}

void OverviewController::phasesShown()
{
    if (!m_scene || m_phases->shownScene() != m_scene)
        return;
    OverviewPhases phases = overviewPhases(m_phases->shownTable(), m_phases->shownEntries(), *m_scene);
    phases.provisional = m_loading;
    m_overview->setPhases(std::move(phases));
}

void OverviewController::setLoading(bool loading)
{
    m_loading = loading;
    phasesShown();
}

void OverviewController::askForRank()
{
    const TimelineScene *scene = m_canvas->scene();
    if (!scene || scene->entries.empty())
        return;
    GoToRankDialog dialog(*scene, m_canvas);
    if (dialog.exec() == QDialog::Accepted)
        m_navigator->goTo(dialog.chosenEntry());
}

bool OverviewController::isBusy() const
{
    return m_overview->isBusy();
}

} // namespace ps::views
