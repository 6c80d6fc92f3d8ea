#include "views/stats/comparepane.h"

#include "views/common/tablecopy.h"
#include "views/scene/timeformat.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

namespace ps::views {

namespace an = core::analysis;
using core::CancelToken;
using core::trace::ReportPtr;

namespace {

const QColor kSlower(0xc6, 0x28, 0x28), kFaster(0x2e, 0x7d, 0x32);

QStandardItem *numberItem(const QString &text, double sortValue)
{
    auto *item = new QStandardItem(text);
    item->setData(sortValue, Qt::UserRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString signedDuration(int64_t ns)
{
    return (ns > 0 ? QStringLiteral("+") : QString()) + formatDuration(ns);
}

// The reports of one run, in the order they were opened.
std::vector<ReportPtr> reportsOfRun(const std::vector<PreparedReportPtr> &reports, const QString &run)
{
    std::vector<ReportPtr> out;
    for (const PreparedReportPtr &p : reports)
        if (QString::fromStdString(p->report().identity.run) == run)
            out.push_back(p->reportPtr());
    return out;
}

} // namespace

ComparePane::ComparePane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(buildControls());
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setWordWrap(true);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_summary);
    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setHorizontalHeaderLabels({QStringLiteral("What"), QStringLiteral("Step"), QStringLiteral("Name"),
                                        QStringLiteral("Baseline"), QStringLiteral("Candidate"), QStringLiteral("Δ"),
                                        QStringLiteral("Δ %")});
    m_model->setSortRole(Qt::UserRole);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setModel(m_model);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    installTableCopy(m_table);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Stretch);
    layout->addWidget(m_table, 1);
    m_job = new LatestJob<an::RunComparison>(this, [this](const an::RunComparison &c) { show(c); });
    connect(m_job, &LatestJobBase::busyChanged, this, &ComparePane::busyChanged);
    setRuns({});
}

QWidget *ComparePane::buildControls()
{
    auto *bar = new QWidget(this);
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    m_baseline = new QComboBox(bar);
    m_baseline->setObjectName(QStringLiteral("baselineRun"));
    m_candidate = new QComboBox(bar);
    m_candidate->setObjectName(QStringLiteral("candidateRun"));
    for (QComboBox *c : {m_baseline, m_candidate}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(16);
    }
    m_tolerance = new QDoubleSpinBox(bar);
    m_tolerance->setObjectName(QStringLiteral("tolerance"));
    m_tolerance->setRange(0, 1000);
    m_tolerance->setValue(an::CompareOptions{}.tolerancePct);
    m_tolerance->setSuffix(QStringLiteral(" %"));
    m_tolerance->setToolTip(QStringLiteral("A delta counts as a change when it moves by more than this share of the "
                                           "baseline (trace compare --tolerance)"));
    row->addWidget(new QLabel(QStringLiteral("Baseline"), bar));
    row->addWidget(m_baseline, 1);
    row->addWidget(new QLabel(QStringLiteral("Candidate"), bar));
    row->addWidget(m_candidate, 1);
    row->addWidget(new QLabel(QStringLiteral("Tolerance"), bar));
    row->addWidget(m_tolerance);
    for (QComboBox *c : {m_baseline, m_candidate})
        connect(c, &QComboBox::currentIndexChanged, this, &ComparePane::recompute);
    connect(m_tolerance, &QDoubleSpinBox::valueChanged, this, &ComparePane::recompute);
    return bar;
}

void ComparePane::setInput(std::vector<PreparedReportPtr> reports)
{
    if (reports == m_reports)
        return; // a zoom, a pan, another Show choice: the runs are the same, and so is their comparison
    m_reports = std::move(reports);
    QStringList runs;
    for (const PreparedReportPtr &p : m_reports) {
        const QString run = QString::fromStdString(p->report().identity.run);
        if (!runs.contains(run))
            runs << run;
    }
    setRuns(runs);
    // Comparing two runs reads all their events: only when the tab is looked at.
    m_dirty = true;
    if (isVisible())
        recompute();
}

void ComparePane::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        recompute();
}

// Keeps the user's picks when the runs stay; else the first run opened is the baseline and the
// second the candidate.
void ComparePane::setRuns(const QStringList &runs)
{
    if (runs == m_runs && m_baseline->count() == runs.size())
        return;
    m_runs = runs;
    for (QComboBox *c : {m_baseline, m_candidate}) {
        const QSignalBlocker quiet(c);
        c->clear();
        c->addItems(runs);
    }
    const QSignalBlocker quiet(m_candidate);
    m_candidate->setCurrentIndex(runs.size() > 1 ? 1 : 0);
}

bool ComparePane::isBusy() const
{
    return m_job->isBusy();
}

void ComparePane::recompute()
{
    m_dirty = false;
    if (m_runs.size() < 2 || m_baseline->currentIndex() == m_candidate->currentIndex()) {
        m_job->cancel();
        m_model->removeRows(0, m_model->rowCount());
        m_summary->setText(m_runs.size() < 2 ? QStringLiteral("Open two runs (two report folders) to compare "
                                                              "them: the first one opened is the baseline.")
                                             : QStringLiteral("Pick two different runs."));
        return;
    }
    an::CompareOptions options;
    options.tolerancePct = m_tolerance->value();
    m_job->run([base = reportsOfRun(m_reports, m_baseline->currentText()),
                cand = reportsOfRun(m_reports, m_candidate->currentText()),
                options](const CancelToken &cancel) { return an::compareRuns(base, cand, options, &cancel); });
}

void ComparePane::show(const an::RunComparison &c)
{
    if (c.cancelled)
        return;
    m_model->removeRows(0, m_model->rowCount());
    int changes = 0;
    for (const an::Delta &d : c.deltas) {
        QList<QStandardItem *> row;
        row << new QStandardItem(QString::fromUtf8(an::deltaKindName(d.kind)));
        row << numberItem(d.step ? QString::number(*d.step) : QString(), d.step ? double(*d.step) : -1);
        row << new QStandardItem(QString::fromStdString(d.name));
        row << numberItem(formatDuration(d.baselineNs), double(d.baselineNs));
        row << numberItem(formatDuration(d.candidateNs), double(d.candidateNs));
        row << numberItem(signedDuration(d.deltaNs()), double(d.deltaNs()));
        const auto pct = d.deltaPct();
        row << numberItem(pct ? QStringLiteral("%1%2 %").arg(*pct > 0 ? "+" : "").arg(*pct, 0, 'f', 1)
                              : QStringLiteral("new"),
                          pct.value_or(1e9));
        if (d.changed) {
            ++changes;
            const QColor colour = d.deltaNs() > 0 ? kSlower : kFaster;
            for (QStandardItem *item : row)
                item->setForeground(colour);
        }
        m_model->appendRow(row);
    }
    m_summary->setText(QStringLiteral("%1 matched reports · %2 only in the baseline · %3 only in the candidate · "
                                      "%4 changes beyond ±%5 % (red: slower, green: faster)")
                           .arg(c.match.pairs.size())
                           .arg(c.match.baselineOnly.size())
                           .arg(c.match.candidateOnly.size())
                           .arg(changes)
                           .arg(m_tolerance->value()));
    for (const std::string &why : c.problems) // e.g. runs that profiled different steps, compared in order
        m_summary->setText(m_summary->text() + QStringLiteral("\n") + QString::fromStdString(why));
    m_table->resizeColumnToContents(Kind);
}

QString ComparePane::summary() const
{
    return m_summary->text();
}

} // namespace ps::views
