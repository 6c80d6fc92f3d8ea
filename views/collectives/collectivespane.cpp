#include "views/collectives/collectivespane.h"

#include "views/collectives/collectivesmodel.h"
#include "views/collectives/waitstripdelegate.h"
#include "views/common/tablecopy.h"
#include "views/scene/timeformat.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace ps::views {

namespace an = ps::core::analysis;

namespace {
constexpr size_t kGroupLines = 6; // group lines above the table; the rest are counted

// Each figure says what it sums: the members' waits over the group's ranks, the transfers over
// its instances.
QString groupLine(const an::CollectiveGroupSummary &g)
{
    const size_t ranks = std::max<size_t>(1, g.ranks.size());
    const size_t complete = std::max<size_t>(1, g.complete);
    QString line = QStringLiteral("group %1: %2 instances (%3 complete), total wait %4 over %5 ranks (%6 per rank), "
                                  "transfer %7 over the instances (%8 each)")
                       .arg(QString::fromStdString(g.group))
                       .arg(g.instances)
                       .arg(g.complete)
                       .arg(formatDuration(g.waitNs))
                       .arg(g.ranks.size())
                       .arg(formatDuration(g.waitNs / int64_t(ranks)), formatDuration(g.transferNs),
                            formatDuration(g.transferNs / int64_t(complete)));
    if (g.medianBusbwGBps)
        line += QStringLiteral(", median busbw %1").arg(bandwidthText(g.medianBusbwGBps));
    if (g.mostOftenLast >= 0)
        line += QStringLiteral("; rank %1 arrived last %2 times").arg(g.mostOftenLast).arg(g.timesLast);
    return line;
}

QString matchingText(size_t reports)
{
    return QStringLiteral("Matching the collectives of %1 reports across ranks… (Esc cancels)").arg(reports);
}

// The summary's tooltip: how each group's instances were matched, and the bandwidth's "-".
QString summaryTip(const an::CollectiveAnalysis &a)
{
    QStringList methods;
    for (const an::CollectiveGroupSummary &g : a.groups)
        if (const QString m = matchMethodExplained(g.method); !methods.contains(m))
            methods << m;
    methods << busbwMissingWhy();
    return methods.join(QLatin1Char('\n'));
}
} // namespace

CollectivesPane::CollectivesPane(QWidget *parent) : BackgroundPane(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *top = new QHBoxLayout;
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("collectivesSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_again = new QPushButton(QStringLiteral("Match again"), this);
    m_again->hide();
    top->addWidget(m_summary, 1);
    top->addWidget(m_again, 0, Qt::AlignTop);
    layout->addLayout(top);
    m_model = new CollectivesModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(CollectivesModel::kSortRole);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("collectivesTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // group and index order until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setItemDelegateForColumn(CollectivesModel::WaitStrip, new WaitStripDelegate(m_model, this));
    m_table->horizontalHeader()->setStretchLastSection(true);
    installTableCopy(m_table);
    layout->addWidget(m_table, 1);
    m_job = addJob<CollectiveViewPtr>([this](CollectiveViewPtr v) { show(std::move(v)); });
    connect(m_again, &QPushButton::clicked, this, [this] {
        m_again->hide();
        if (m_run)
            m_run->restart();
        m_summary->setText(matchingText(m_entries.size()));
    });
    auto *esc = new QAction(this);
    esc->setShortcut(Qt::Key_Escape);
    esc->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(esc);
    connect(esc, &QAction::triggered, this, &CollectivesPane::cancel);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CollectivesPane::onRowSelected);
    showSummary();
}

void CollectivesPane::setRunJob(RunAnalysesJob *job)
{
    if (m_run == job)
        return;
    if (m_run)
        disconnect(m_run, nullptr, this, nullptr);
    m_run = job;
    watchShared(m_run->job());
    connect(m_run, &RunAnalysesJob::ready, this, &CollectivesPane::onRunReady);
}

void CollectivesPane::setInput(std::shared_ptr<const TimelineScene> scene, std::vector<int> entries)
{
    if (scene == m_scene && entries == m_entries)
        return;
    m_scene = std::move(scene);
    m_entries = std::move(entries);
    start();
}

void CollectivesPane::start()
{
    m_again->hide();
    m_job->cancel();
    if (!m_scene) {
        show(nullptr);
        return;
    }
    if (!m_run)
        setRunJob(new RunAnalysesJob(this));
    m_run->setInput(m_scene, m_entries);
    if (const RunAnalysesPtr done = m_run->finishedFor(m_scene, m_entries)) {
        onRunReady(done); // matched already for another pane
        return;
    }
    m_summary->setText(matchingText(m_entries.size()));
}

void CollectivesPane::onRunReady(const RunAnalysesPtr &analyses)
{
    if (!analyses->holds(m_scene, m_entries))
        return;
    m_job->run([analyses](const CancelToken &cancel) { return collectiveViewOf(analyses, cancel); });
}

void CollectivesPane::cancel()
{
    if (!isBusy())
        return;
    if (m_run)
        m_run->cancel();
    m_job->cancel();
    m_summary->setText(QStringLiteral("Matching cancelled."));
    m_again->setVisible(m_scene != nullptr);
}

void CollectivesPane::show(CollectiveViewPtr view)
{
    if (!view && m_scene) // cancelled inside the job
        return;
    m_view = std::move(view);
    m_model->setView(m_view);
    m_table->resizeColumnsToContents();
    showSummary();
    emit viewReady(m_view);
}

QString CollectivesPane::summaryText() const
{
    return m_summary->text();
}

void CollectivesPane::showSummary()
{
    if (!m_view) {
        m_summary->setText(QStringLiteral("Open the reports of a run's ranks to match their collectives."));
        return;
    }
    if (!m_view->unavailable.isEmpty()) {
        m_summary->setText(m_view->unavailable);
        return;
    }
    const an::CollectiveAnalysis &a = m_view->analysis;
    QStringList lines;
    for (const std::string &e : a.errors)
        lines << QStringLiteral("error: %1").arg(QString::fromStdString(e));
    if (a.instanceCount == 0 && a.errors.empty())
        lines << QStringLiteral("No collectives found in %1 reports.").arg(m_view->reports.size());
    if (m_view->capped())
        lines << QStringLiteral("A large run: the table lists the %1 instances with the largest skew (and the first "
                                "incomplete ones) of %2, and the timeline hatches their waits only; the groups "
                                "below sum them all.")
                     .arg(a.instances.size())
                     .arg(a.instanceCount);
    for (size_t g = 0; g < a.groups.size() && g < kGroupLines; ++g)
        lines << groupLine(a.groups[g]);
    m_summary->setToolTip(summaryTip(a));
    if (a.groups.size() > kGroupLines)
        lines << QStringLiteral("… and %1 more groups").arg(a.groups.size() - kGroupLines);
    if (m_view->needsEvents > 0)
        lines << QStringLiteral("%1 digests opened without events carry no collective records: their collectives "
                                "need events (open the source traces, or zoom in to page their events in).")
                     .arg(m_view->needsEvents);
    for (size_t i = 0; i < a.notes.size() && i < 3; ++i)
        lines << QStringLiteral("note: %1").arg(QString::fromStdString(a.notes[i]));
    m_summary->setText(lines.join(QLatin1Char('\n')));
}

void CollectivesPane::selectInstance(std::optional<size_t> instance)
{
    m_selecting = true;
    const int row = instance ? m_model->rowOf(*instance) : -1;
    if (row < 0) {
        m_table->selectionModel()->clearSelection();
    } else {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        m_table->selectionModel()->setCurrentIndex(index,
                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(index);
    }
    m_selecting = false;
}

void CollectivesPane::onRowSelected()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (m_selecting || !current.isValid())
        return;
    emit instanceChosen(size_t(current.data(CollectivesModel::kInstanceRole).toInt()));
}

} // namespace ps::views
