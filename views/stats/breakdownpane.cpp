#include "views/stats/breakdownpane.h"

#include "core/analysis/digestsummary.h"
#include "views/common/tablecopy.h"
#include "views/scene/timelinescene.h"
#include "views/stats/phasespane.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace ps::views {

namespace an = core::analysis;

BreakdownPane::BreakdownPane(PhasesPane *phases, QWidget *parent) : BackgroundPane(parent), m_phases(phases)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *bar = new QHBoxLayout;
    m_summary = new QLabel(QStringLiteral("Open reports to see where their GPU time goes."), this);
    m_summary->setWordWrap(true);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_scope = new QComboBox(this);
    m_scope->addItem(QStringLiteral("Per report"));
    m_scope->addItem(QStringLiteral("Per phase"));
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_scope);
    layout->addLayout(bar);
    m_model = new BreakdownModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // the timeline's order until a click
    m_table->setSortingEnabled(true);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    installTableCopy(m_table);
    layout->addWidget(m_table, 1);
    connect(m_scope, &QComboBox::currentIndexChanged, this, &BreakdownPane::showRows);
    connect(phases, &PhasesPane::tableShown, this, &BreakdownPane::inputChanged);
    m_job = addJob<PerReport>([this](PerReport r) {
        m_perReport = std::move(r);
        m_reading = false; // the job still counts as busy while its result is handed over
        showRows();
    });
}

void BreakdownPane::setScope(Scope scope)
{
    m_scope->setCurrentIndex(int(scope));
}

// The phase pane shows a new table: a new set of reports, or the same with a report paged in.
void BreakdownPane::inputChanged()
{
    const bool sameReports = m_scene && m_phases->shownScene() && m_entries == m_phases->shownEntries() &&
                             m_scene->entries.size() == m_phases->shownScene()->entries.size();
    std::vector<core::trace::ReportPtr> reports;
    if (const auto &scene = m_phases->shownScene())
        for (int e : m_phases->shownEntries())
            reports.push_back(scene->entries[size_t(e)].report->reportPtr());
    bool samePaths = sameReports;
    for (size_t i = 0; samePaths && i < reports.size(); ++i)
        samePaths = reports[i]->path == m_scene->entries[size_t(m_entries[i])].report->report().path;
    m_scene = m_phases->shownScene();
    m_entries = m_phases->shownEntries();
    if (samePaths) { // a report paged in: the same numbers
        showRows();
        return;
    }
    m_perReport = {};
    m_reading = false;
    showRows();
    if (reports.empty()) {
        cancelJobs();
        return;
    }
    // The waits come from the run's one matching (the phases' shown RunAnalyses), the breakdowns
    // from each report's summary or events: only when the tab is looked at.
    RunAnalysesPtr analyses = m_phases->shownAnalyses();
    if (analyses && analyses->analysed != m_entries)
        analyses = nullptr; // a step overlay: collectives are matched across ranks only
    whenShown([this, reports, analyses] {
        m_job->run([reports, analyses](const CancelToken &cancel) {
            return reportBreakdowns(reports, analyses ? analyses->run.waits : decltype(analyses->run.waits){}, cancel);
        });
        m_reading = true;
        showRows(); // "Reading…"
    });
}

QString BreakdownPane::runName() const
{
    if (!m_scene || m_entries.empty())
        return {};
    const std::string &run = m_scene->entries[size_t(m_entries.front())].report->report().identity.run;
    return QString::fromStdString(run);
}

void BreakdownPane::showRows()
{
    std::vector<BreakdownRow> rows;
    const QString run = runName();
    const QString ofRun = run.isEmpty() ? QString() : QStringLiteral(" of run %1").arg(run);
    if (m_scope->currentIndex() == int(Scope::PerReport)) {
        QStringList missing;
        for (size_t i = 0; i < m_perReport.breakdowns.size() && i < m_entries.size(); ++i) {
            const TimelineEntry &e = m_scene->entries[size_t(m_entries[i])];
            if (m_perReport.breakdowns[i])
                rows.push_back({{e.label}, m_entries[i], *m_perReport.breakdowns[i], m_perReport.splits[i]});
            else
                missing << QString::fromStdString(m_perReport.errors[i]);
        }
        m_model->setRows({QStringLiteral("Report")}, std::move(rows));
        m_summary->setText(
            m_entries.empty() ? QStringLiteral("Open reports to see where their GPU time goes.")
            : m_reading
                ? QStringLiteral("Reading the GPU breakdown of %1 report(s)%2…").arg(m_entries.size()).arg(ofRun)
                : QStringLiteral("GPU time of %1 report(s)%2, as profstudio-cli trace breakdown computes it%3")
                      .arg(m_model->rowCount())
                      .arg(ofRun,
                           missing.isEmpty() ? QString() : QStringLiteral("; without one: ") + missing.join("; ")));
    } else {
        const an::PhaseTable &t = m_phases->shownTable();
        for (const an::PhaseRow &r : t.rows)
            for (size_t c = 0; c < r.cells.size() && c < t.columns.size(); ++c)
                if (r.cells[c].present && t.columns[c].report < m_entries.size())
                    rows.push_back({{QString::number(r.step), QString::fromStdString(r.phase),
                                     QString::fromStdString(t.columns[c].label)},
                                    m_entries[t.columns[c].report],
                                    r.cells[c].gpu,
                                    std::nullopt});
        m_model->setRows({QStringLiteral("Step"), QStringLiteral("Phase"), QStringLiteral("Rank")}, std::move(rows));
        m_summary->setText(t.rows.empty() ? QStringLiteral("No verl or RLinf phases in these reports%1.").arg(ofRun)
                                          : QStringLiteral("GPU time inside each phase on each rank%1").arg(ofRun));
    }
    m_table->resizeColumnsToContents();
}

} // namespace ps::views
