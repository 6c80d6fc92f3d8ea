#include "views/stats/comparepane.h"

#include "views/common/tablecopy.h"
#include "views/scene/timeformat.h"
#include "views/stats/comparerowsfilter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
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
    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_proxy = new CompareRowsFilter(kChangedRole, Name, this);
    layout->addWidget(buildControls());
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setWordWrap(true);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_summary);
    m_model->setHorizontalHeaderLabels({QStringLiteral("What"), QStringLiteral("Step"), QStringLiteral("Name"),
                                        QStringLiteral("Baseline"), QStringLiteral("Candidate"), QStringLiteral("Δ"),
                                        QStringLiteral("Δ %")});
    m_proxy->setSourceModel(m_model);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setMinimumHeight(44); // a header and a row below two rows of controls: the tabs leave a
                                   // laptop's timeline its height
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(Kind, Qt::AscendingOrder); // changes first, each part by size
    connect(m_table, &QTableView::doubleClicked, this, &ComparePane::activate);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    installTableCopy(m_table);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Stretch);
    layout->addWidget(m_table, 1);
    m_job = new LatestJob<Compared>(this, [this](const Compared &c) { show(c); });
    connect(m_job, &LatestJobBase::busyChanged, this, &ComparePane::busyChanged);
    setRuns({});
}

QWidget *ComparePane::buildControls()
{
    auto *bar = new QWidget(this);
    auto *rows = new QVBoxLayout(bar);
    rows->setContentsMargins(0, 0, 0, 0);
    auto *row = new QHBoxLayout;
    auto *second = new QHBoxLayout; // the filter below the picks: the pane fits a laptop's width
    rows->addLayout(row);
    rows->addLayout(second);
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
    m_filter = new QLineEdit(bar);
    m_filter->setObjectName(QStringLiteral("compareFilter"));
    m_filter->setPlaceholderText(
        QStringLiteral("Filter by name… (double-click a phase, range or kernel to find it in the timeline)"));
    m_filter->setClearButtonEnabled(true);
    m_showUnchanged = new QCheckBox(QStringLiteral("Show unchanged"), bar);
    m_showUnchanged->setObjectName(QStringLiteral("showUnchanged"));
    m_showUnchanged->setToolTip(QStringLiteral("Also list what moved by less than the tolerance"));
    second->addWidget(m_filter, 1);
    second->addWidget(m_showUnchanged);
    auto *filter = static_cast<CompareRowsFilter *>(m_proxy);
    connect(m_filter, &QLineEdit::textChanged, this, [this, filter](const QString &t) {
        filter->setText(t);
        updateSummary();
    });
    connect(m_showUnchanged, &QCheckBox::toggled, this, [this, filter](bool on) {
        filter->setShowUnchanged(on);
        updateSummary();
    });
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
        m_rowSites.clear();
        m_comparedText.clear();
        m_summary->setText(m_runs.size() < 2 ? QStringLiteral("Open two runs (two report folders) to compare "
                                                              "them: the first one opened is the baseline.")
                                             : QStringLiteral("Pick two different runs."));
        return;
    }
    an::CompareOptions options;
    options.tolerancePct = m_tolerance->value();
    m_job->run([base = reportsOfRun(m_reports, m_baseline->currentText()),
                cand = reportsOfRun(m_reports, m_candidate->currentText()), options](const CancelToken &cancel) {
        const auto paths = [](const std::vector<ReportPtr> &run) {
            std::vector<std::string> out;
            for (const ReportPtr &r : run)
                out.push_back(r->path);
            return out;
        };
        return Compared{an::compareRuns(base, cand, options, &cancel), paths(base), paths(cand)};
    });
}

std::vector<CompareSite> ComparePane::sitesOf(const an::Delta &d, const Compared &compared) const
{
    std::vector<CompareSite> sites;
    if (d.baselineSite && d.baselineSite->report < compared.baselinePaths.size())
        sites.push_back({compared.baselinePaths[d.baselineSite->report], d.baselineSite->range});
    if (d.candidateSite && d.candidateSite->report < compared.candidatePaths.size())
        sites.push_back({compared.candidatePaths[d.candidateSite->report], d.candidateSite->range});
    return sites;
}

void ComparePane::show(const Compared &compared)
{
    const an::RunComparison &c = compared.comparison;
    if (c.cancelled)
        return;
    m_model->removeRows(0, m_model->rowCount());
    m_rowSites.clear();
    int changes = 0;
    for (size_t i = 0; i < c.deltas.size(); ++i) {
        const an::Delta &d = c.deltas[i];
        QList<QStandardItem *> row;
        auto *kind = new QStandardItem(QString::fromUtf8(an::deltaKindName(d.kind)));
        kind->setData(double(i) + (d.changed ? 0.0 : 1e12), kOrderRole); // changes first, each by size
        kind->setData(int(d.kind), kKindRole);
        kind->setData(d.changed, kChangedRole);
        row << kind;
        row << numberItem(d.step ? QString::number(*d.step) : QString(), d.step ? double(*d.step) : -1);
        auto *name = new QStandardItem(QString::fromStdString(d.name));
        name->setData(name->text().toLower(), Qt::UserRole);
        row << name;
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
        m_rowSites.push_back(sitesOf(d, compared));
    }
    m_comparedText = QStringLiteral("%1 matched reports · %2 only in the baseline · %3 only in the candidate · "
                                    "%4 changes beyond ±%5 % (red: slower, green: faster), listed first")
                         .arg(c.match.pairs.size())
                         .arg(c.match.baselineOnly.size())
                         .arg(c.match.candidateOnly.size())
                         .arg(changes)
                         .arg(m_tolerance->value());
    m_problemsText.clear();
    for (const std::string &why : c.problems) // e.g. runs that profiled different steps, compared in order
        m_problemsText += QStringLiteral("\n") + QString::fromStdString(why);
    updateSummary();
    m_table->resizeColumnToContents(Kind);
}

// What the comparison found, and how much of it the table shows as filtered now.
void ComparePane::updateSummary()
{
    if (m_comparedText.isEmpty())
        return;
    QString shown = QStringLiteral("; %1 of %2 rows shown").arg(m_proxy->rowCount()).arg(m_model->rowCount());
    if (!m_showUnchanged->isChecked() && m_proxy->rowCount() < m_model->rowCount())
        shown += QStringLiteral(" (Show unchanged lists them all)");
    m_summary->setText(m_comparedText + shown + m_problemsText);
}

// A phase's, range's or kernel's row finds its events by name, a phase row its own ranges too; a
// breakdown class is no event.
void ComparePane::activate(const QModelIndex &shownIndex)
{
    const QModelIndex index = m_proxy->mapToSource(shownIndex);
    if (!index.isValid())
        return;
    const auto kind = an::DeltaKind(m_model->item(index.row(), Kind)->data(kKindRole).toInt());
    QString name = m_model->item(index.row(), Name)->text();
    if (kind == an::DeltaKind::Breakdown)
        return;
    if (kind == an::DeltaKind::PhaseRank) // "ActorGroup:3 update_actor": the phase of that rank
        name = name.mid(name.lastIndexOf(QLatin1Char(' ')) + 1);
    const bool phase = kind == an::DeltaKind::Phase || kind == an::DeltaKind::PhaseRank;
    emit findInTimeline(phase ? QString::fromStdString(an::PhaseMapping::defaults().labelPattern(name.toStdString()))
                              : QLatin1Char('^') + QRegularExpression::escape(name) + QLatin1Char('$'),
                        size_t(index.row()) < m_rowSites.size() ? m_rowSites[size_t(index.row())]
                                                                : std::vector<CompareSite>{});
}

QString ComparePane::summary() const
{
    return m_summary->text();
}

} // namespace ps::views
