#include "views/stats/phasespane.h"

#include "views/common/tablecopy.h"
#include "views/scene/timelinescene.h"
#include "views/stats/phaseoccurrences.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

namespace ps::views {

namespace an = core::analysis;

namespace {

QString ms(int64_t ns)
{
    return QString::number(double(ns) / 1e6, 'f', 3);
}

QStandardItem *item(const QString &text, const QString &tip = {})
{
    auto *i = new QStandardItem(text);
    i->setEditable(false);
    if (!tip.isEmpty())
        i->setToolTip(tip);
    return i;
}

// "compute 91 / comm 8 / mem 0 / idle 1 %" of a cell's GPU breakdown.
QString gpuShares(const an::GpuBreakdown &b)
{
    if (b.spanNs <= 0)
        return QStringLiteral("-");
    const double span = double(b.spanNs);
    auto pct = [&](int64_t v) { return QString::number(100.0 * double(v) / span, 'f', 0); };
    return QStringLiteral("compute %1 / comm %2 / mem %3 / idle %4 %")
        .arg(pct(b.computeNs()), pct(b.communicationNs()), pct(b.memoryNs()), pct(b.idleNs));
}

// How the row's straggler was found (core/analysis/phases/phasestraggler.h), for its tooltip.
QString stragglerHow(const an::PhaseRow &r)
{
    return r.byArrival ? QStringLiteral("By arrival: the rank that made the others wait in the phase's collectives")
                       : QStringLiteral("By work time (wall time minus waiting): the phase has no matched collectives");
}

} // namespace

PhasesPane::PhasesPane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary = new QLabel(QStringLiteral("Open reports with verl or RLinf phase ranges to see their phases."), this);
    m_summary->setObjectName(QStringLiteral("phasesSummary"));
    m_summary->setWordWrap(true);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_summary);
    m_model = new QStandardItemModel(this);
    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    installTableCopy(m_table);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTableView::clicked, this,
            [this](const QModelIndex &index) { onClicked(index.row(), index.column()); });
    m_job = new LatestJob<an::PhaseTable>(this, [this](const an::PhaseTable &t) { show(t); });
    connect(m_job, &LatestJobBase::busyChanged, this, [this] { emit busyChanged(isBusy()); });
}

bool PhasesPane::isBusy() const
{
    return m_job->isBusy() || (m_run && m_run->isBusy());
}

void PhasesPane::setRunJob(RunAnalysesJob *job)
{
    if (m_run == job)
        return;
    if (m_run)
        disconnect(m_run, nullptr, this, nullptr);
    m_run = job;
    connect(m_run, &RunAnalysesJob::ready, this, &PhasesPane::onRunReady);
    connect(m_run, &RunAnalysesJob::busyChanged, this, [this] { emit busyChanged(isBusy()); });
    connect(m_run, &RunAnalysesJob::cancelled, this, [this] {
        m_summary->setText(QStringLiteral("Cancelled: the phase table waits for the run's collectives to be matched "
                                          "(Match again in the Collectives tab)."));
    });
}

void PhasesPane::setInput(std::shared_ptr<const TimelineScene> scene, std::vector<int> entries)
{
    if (scene == m_scene && entries == m_entries)
        return;
    m_scene = std::move(scene);
    m_entries = std::move(entries);
    m_job->cancel();
    if (!m_scene || m_entries.empty()) {
        m_pending = nullptr;
        show({});
        return;
    }
    if (!m_run)
        setRunJob(new RunAnalysesJob(this));
    m_run->setInput(m_scene, m_entries);
    if (const RunAnalysesPtr done = m_run->finishedFor(m_scene, m_entries)) {
        onRunReady(done); // matched already for another pane
        return;
    }
    m_summary->setText(QStringLiteral("Finding the phases of %1 report(s)…").arg(m_entries.size()));
}

void PhasesPane::onRunReady(const RunAnalysesPtr &analyses)
{
    if (!analyses->holds(m_scene, m_entries))
        return;
    m_pending = analyses;
    // A step overlay repeats a report once per occurrence: its phases were computed once and are
    // laid out per occurrence (phaseoccurrences.h).
    if (!m_scene->overlay) {
        show(analyses->phases);
        return;
    }
    m_job->run([analyses](const CancelToken &) {
        return phasesPerOccurrence(analyses->phases, *analyses->scene, analyses->entries, analyses->reportOfEntry);
    });
}

void PhasesPane::show(const an::PhaseTable &t)
{
    m_shown = t;
    m_shownAnalyses = m_pending;
    m_shownScene = m_scene;
    m_shownEntries = m_entries;
    m_summary->setToolTip(t.stepsFrom.empty() ? QString::fromStdString(t.stepsNote)
                                              : QStringLiteral("Steps as %1").arg(QString::fromStdString(t.stepsFrom)));
    m_model->clear();
    const bool perOccurrence = m_scene && m_scene->overlay;
    QStringList headers = {QStringLiteral("Step"),
                           QStringLiteral("Phase"),
                           perOccurrence ? QStringLiteral("Slowest") : QStringLiteral("Straggler"),
                           QStringLiteral("Lag %"),
                           QStringLiteral("Max ms"),
                           QStringLiteral("Straggler GPU")};
    for (const an::PhaseColumn &c : t.columns)
        headers << QString::fromStdString(c.label);
    m_model->setHorizontalHeaderLabels(headers);
    for (const an::PhaseRow &r : t.rows) {
        QList<QStandardItem *> row;
        const bool hasStraggler = r.straggler >= 0;
        row << item(perOccurrence ? QStringLiteral("-") : QString::number(r.step))
            << item(QString::fromStdString(r.phase))
            << item(hasStraggler ? QString::fromStdString(t.columns[size_t(r.straggler)].label) : QStringLiteral("-"),
                    hasStraggler ? stragglerHow(r) : QString())
            << item(QString::number(r.lagPct(), 'f', 1),
                    QStringLiteral("the wait the straggler caused, in % of the median rank's wall time"))
            << item(ms(r.maxWallNs), QStringLiteral("median %1 ms").arg(ms(r.medianWallNs)))
            << item(hasStraggler ? gpuShares(r.cells[size_t(r.straggler)].gpu) : QStringLiteral("-"));
        for (size_t c = 0; c < r.cells.size(); ++c) {
            const an::PhaseCell &cell = r.cells[c];
            QStandardItem *i =
                item(cell.present ? ms(cell.wallNs) : QString(), cell.present ? gpuShares(cell.gpu) : QString());
            if (int(c) == r.straggler)
                i->setBackground(QColor(0xfd, 0xd8, 0xd3));
            row << i;
        }
        m_model->appendRow(row);
    }
    m_table->resizeColumnsToContents();
    if (t.rows.empty())
        m_summary->setText(
            t.columns.empty()
                ? QStringLiteral("No reports.")
                : QStringLiteral("No verl or RLinf phase ranges in these %1 report(s).").arg(t.columns.size()));
    else if (perOccurrence)
        m_summary->setText(QStringLiteral("%1 phase(s) per occurrence, over %2 occurrence(s) of the overlay%3. "
                                          "Click a cell to select that phase in that occurrence.")
                               .arg(t.rows.size())
                               .arg(t.columns.size())
                               .arg(ofRun()));
    else
        m_summary->setText(QStringLiteral("%1 phase(s) over %2 rank(s)%3%4. Click a cell to select that phase on that "
                                          "rank (other columns: on the straggler).")
                               .arg(t.rows.size())
                               .arg(t.columns.size())
                               .arg(ofRun(), stepsText(t)));
    if (!t.stragglerNotes.empty()) // the matcher refused the run: say why every straggler is by work
        m_summary->setText(m_summary->text() + QStringLiteral(" Every straggler was judged by work time: %1")
                                                   .arg(QString::fromStdString(t.stragglerNotes.front())));
    if (!t.problems.empty()) // left out of the columns, as `trace phases` leaves them out
        m_summary->setText(m_summary->text() + QStringLiteral(" %1 report(s) could not answer and have no column: %2")
                                                   .arg(t.problems.size())
                                                   .arg(QString::fromStdString(t.problems.front().second)));
    emit tableShown();
}

// Where the step numbers come from, when not from the reports themselves.
QString PhasesPane::stepsText(const an::PhaseTable &t)
{
    if (!t.stepsFrom.empty()) { // "KEY in /long/path/run.yaml": the file's name is enough here
        const QString from = QString::fromStdString(t.stepsFrom);
        const qsizetype in = from.indexOf(QStringLiteral(" in "));
        const QString shown = in < 0 ? from : from.left(in + 4) + QFileInfo(from.mid(in + 4)).fileName();
        return QStringLiteral("; steps numbered as %1 names them").arg(shown);
    }
    if (!t.stepsCounted)
        return {};
    const QString why = t.stepsNote.empty() ? QStringLiteral("the reports and their config do not say which "
                                                             "training steps they profiled")
                                            : QString::fromStdString(t.stepsNote);
    if (t.stepsByCapture)
        return QStringLiteral("; steps numbered 1, 2, … by capture order, as nsys numbered the capture ranges "
                              "(worker_process_<PID>.<RID>; %1)")
            .arg(why);
    return QStringLiteral("; steps counted 1, 2, … from repeated phases (%1)").arg(why);
}

// " of run NAME" when the table's reports are of one named run.
QString PhasesPane::ofRun() const
{
    QString run;
    for (int e : m_shownEntries) {
        const QString r = QString::fromStdString(m_shownScene->entries[size_t(e)].report->report().identity.run);
        if (!run.isEmpty() && r != run)
            return {};
        run = r;
    }
    return run.isEmpty() ? QString() : QStringLiteral(" of run %1").arg(run);
}

void PhasesPane::selectAt(int entry, int64_t ownNs)
{
    m_table->clearSelection();
    for (size_t c = 0; c < m_shown.columns.size(); ++c) {
        const size_t report = m_shown.columns[c].report;
        if (report >= m_entries.size() || m_entries[report] != entry)
            continue;
        for (size_t r = 0; r < m_shown.rows.size(); ++r) {
            const an::PhaseCell &cell = m_shown.rows[r].cells[c];
            if (cell.present && ownNs >= cell.startNs && ownNs < cell.startNs + cell.wallNs) {
                const QModelIndex i = m_model->index(int(r), kFirstRankColumn + int(c));
                m_table->setCurrentIndex(i);
                if (m_table->isVisible())
                    m_table->scrollTo(i);
                return;
            }
        }
    }
}

void PhasesPane::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_table->currentIndex().isValid())
        m_table->scrollTo(m_table->currentIndex());
}

void PhasesPane::onClicked(int row, int column)
{
    if (row < 0 || size_t(row) >= m_shown.rows.size())
        return;
    const an::PhaseRow &r = m_shown.rows[size_t(row)];
    const int c = column >= kFirstRankColumn ? column - kFirstRankColumn : r.straggler;
    if (c < 0 || size_t(c) >= r.cells.size() || !r.cells[size_t(c)].present)
        return;
    const size_t report = m_shown.columns[size_t(c)].report;
    if (report < m_entries.size())
        emit jumpTo(m_entries[report], r.cells[size_t(c)].first);
}

} // namespace ps::views
