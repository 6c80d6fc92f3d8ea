#include "views/stats/statspane.h"

#include "views/common/latestjob.h"
#include "views/common/tablecopy.h"
#include "views/scene/timeformat.h"
#include "views/scene/vendorwords.h"
#include "views/stats/crossrankchart.h"
#include "views/stats/rangestats.h"
#include "views/stats/statstablemodel.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <iterator>

namespace ps::views {

using core::trace::StatsKind;

StatsPane::StatsPane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *bar = new QHBoxLayout;
    m_kind = new QComboBox(this);
    m_kind->addItem(QStringLiteral("NVTX ranges (nvtx_sum)"));
    m_kind->addItem(QStringLiteral("Kernels (kernel_sum)"));
    // The other reports, in the order of kPickerKinds (index 2 on).
    m_kind->addItem(QStringLiteral("OS runtime calls (osrt_sum)"));
    m_kind->addItem(QStringLiteral("CUDA API calls (cuda_api_sum)"));
    m_kind->addItem(QStringLiteral("GPU memory ops by time (cuda_gpu_mem_time_sum)"));
    m_kind->addItem(QStringLiteral("GPU memory ops by size (cuda_gpu_mem_size_sum)"));
    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(QStringLiteral("Filter names"));
    m_filter->setClearButtonEnabled(true);
    auto *copy = new QPushButton(QStringLiteral("Copy CSV"), this);
    bar->addWidget(m_kind);
    bar->addWidget(m_filter, 1);
    bar->addWidget(copy);
    layout->addLayout(bar);
    m_summary = new QLabel(this);
    layout->addWidget(m_summary);

    // The cross-rank chart beside the table, not under it: shown when a range is selected, it then
    // needs no height the tabs do not have, and a laptop's timeline keeps its share (#38).
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("statsSplit"));
    m_model = new StatsTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(StatsTableModel::SortRole);
    m_proxy->setFilterKeyColumn(StatsTableModel::Name);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = new QTableView(split);
    m_table->setModel(m_proxy);
    m_table->setMinimumHeight(60); // a header and two rows: the tabs leave a laptop's timeline its height
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(StatsTableModel::Total, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    installTableCopy(m_table);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->horizontalHeader()->setDefaultSectionSize(76); // "1.44 s", "11.9 %": the rest to the names
    m_table->horizontalHeader()->setSectionResizeMode(StatsTableModel::Name, QHeaderView::Stretch);
    m_chart = new CrossRankChart(split);
    split->addWidget(m_table);
    split->addWidget(m_chart);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(120);
    connect(m_debounce, &QTimer::timeout, this, &StatsPane::recompute);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] { m_debounce->start(0); });
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(visibleCsv()); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!current.isValid() || kind() != StatsKind::NvtxSum || m_restoring)
                    return;
                showCrossRank(
                    m_proxy->index(current.row(), StatsTableModel::Name).data(StatsTableModel::SortRole).toString(),
                    m_proxy->index(current.row(), StatsTableModel::Style).data(StatsTableModel::SortRole).toString());
            });
    connect(m_chart, &CrossRankChart::barActivated, this, &StatsPane::jumpTo);
    using Rows = std::vector<core::trace::StatRow>;
    m_rowsJob = new LatestJob<Rows>(this, [this](Rows rows) { showRows(std::move(rows)); });
    // The chart takes its share of the width only once a range is selected: the names keep it.
    m_chart->hide();
    m_chartJob = new LatestJob<CrossRankData>(this, [this](const CrossRankData &d) {
        m_chart->setData(d);
        m_chart->setVisible(!d.name.isEmpty());
    });
    for (LatestJobBase *job : {static_cast<LatestJobBase *>(m_rowsJob), static_cast<LatestJobBase *>(m_chartJob)})
        connect(job, &LatestJobBase::busyChanged, this, [this] { emit busyChanged(isBusy()); });
}

StatsPane::~StatsPane() = default;

bool StatsPane::isBusy() const
{
    return m_rowsJob->isBusy() || m_chartJob->isBusy() || m_debounce->isActive();
}

void StatsPane::flushDeferred()
{
    if (m_debounce->isActive()) {
        m_debounce->stop();
        recompute();
    }
}

void StatsPane::selectName(const QString &name, StatsKind k)
{
    m_pendingName = name;
    if (kind() != k)
        setKind(k); // recomputes; showRows() selects
    else if (!m_rowsJob->isBusy() && !m_debounce->isActive())
        applyPendingSelection(false);
}

void StatsPane::applyPendingSelection(bool quietly)
{
    if (m_pendingName.isEmpty())
        return;
    m_restoring = quietly;
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QModelIndex i = m_proxy->index(r, StatsTableModel::Name);
        if (i.data(StatsTableModel::SortRole).toString() == m_pendingName) {
            m_table->selectRow(r);
            m_table->scrollTo(i);
            break;
        }
    }
    m_pendingName.clear();
    m_restoring = false;
}

void StatsPane::setInput(std::shared_ptr<const TimelineScene> scene, std::vector<int> entries, TimeWindow window)
{
    // New reports (or an overlay) make a new scene: the chart is redrawn from it, not left showing
    // the old one's ranks and steps.
    const bool newScene = scene != m_scene || entries != m_entries; // or another run's statistics
    m_scene = std::move(scene);
    m_entries = std::move(entries);
    m_window = window;
    nameKindsInFormatWords();
    if (newScene && m_scene && !m_chart->data().name.isEmpty())
        showCrossRank(m_chart->data().name, m_chart->data().style);
    const bool was = isBusy();
    m_debounce->start();
    if (!was)
        emit busyChanged(true);
}

// The picker says what it sums in the shown reports' own words: "NVTX ranges (nvtx_sum)" is
// nsys's table; Ascend sums torch ops, mstx ranges and HCCL ops, Kineto torch ops and frames.
void StatsPane::nameKindsInFormatWords()
{
    std::vector<core::trace::TraceFormat> formats;
    if (m_scene)
        for (int e : m_entries)
            if (e >= 0 && size_t(e) < m_scene->entries.size())
                formats.push_back(m_scene->entries[size_t(e)].report->report().meta.format);
    m_kind->setItemText(0, rangeStatsLabel(formats));
    m_kind->setItemText(1, kernelStatsLabel(formats));
    m_model->setFormats(std::move(formats));
}

namespace {

// The picker's entries, in its order.
constexpr StatsKind kPickerKinds[] = {StatsKind::NvtxSum,    StatsKind::KernelSum,     StatsKind::OsrtSum,
                                      StatsKind::CudaApiSum, StatsKind::GpuMemTimeSum, StatsKind::GpuMemSizeSum};

} // namespace

void StatsPane::setKind(StatsKind kind)
{
    for (size_t i = 0; i < std::size(kPickerKinds); ++i)
        if (kPickerKinds[i] == kind)
            m_kind->setCurrentIndex(int(i));
}

StatsKind StatsPane::kind() const
{
    const int i = m_kind->currentIndex();
    return i >= 0 && size_t(i) < std::size(kPickerKinds) ? kPickerKinds[size_t(i)] : StatsKind::NvtxSum;
}

void StatsPane::recompute()
{
    if (!m_scene) {
        m_rowsJob->cancel(); // the previous request's result is no longer wanted
        m_model->setRows({}, kind());
        m_summary->clear();
        emit busyChanged(isBusy());
        return;
    }
    const StatsKind k = kind();
    m_rowsKind = k;
    m_rowsJob->run([scene = m_scene, entries = m_entries, window = m_window, k](const CancelToken &cancel) {
        return summarizeWindow(*scene, entries, window, k, &cancel);
    });
}

void StatsPane::setScopeNote(const QString &note)
{
    m_scopeNote = note;
}

void StatsPane::showRows(std::vector<core::trace::StatRow> rows)
{
    const StatsKind k = m_rowsKind;
    // The selected row stays selected when the rows are recomputed (a zoom, a pan), quietly:
    // the chart already shows it.
    const bool restore = m_pendingName.isEmpty() && m_table->currentIndex().isValid() && m_model->kind() == k;
    if (restore)
        m_pendingName =
            m_table->currentIndex().siblingAtColumn(StatsTableModel::Name).data(StatsTableModel::SortRole).toString();
    m_model->setRows(std::move(rows), k);
    m_table->setColumnHidden(StatsTableModel::Style, k != StatsKind::NvtxSum);
    applyPendingSelection(restore);
    m_summary->setText(
        QStringLiteral("%1 row%2 · %3 report%4 · %5 … %6 (events starting in the visible range)%7%8")
            .arg(m_model->rowCount())
            .arg(m_model->rowCount() == 1 ? "" : "s")
            .arg(m_entries.size())
            .arg(m_entries.size() == 1 ? "" : "s")
            .arg(axisLabel(m_window.start, 1000, m_wallClockOrigin), axisLabel(m_window.end, 1000, m_wallClockOrigin))
            .arg(m_scopeNote.isEmpty() ? QString() : QStringLiteral(" · ") + m_scopeNote)
            .arg(outlineNote()));
}

// Reports opened from their digests' summaries count their ranges from the occurrences the digest
// carries, but their kernels, calls and memory operations only once their events are paged in
// (zoomed into): the note says so rather than let their rows read as none.
QString StatsPane::outlineNote() const
{
    if (!m_scene || kind() == StatsKind::NvtxSum)
        return {};
    int outlines = 0;
    for (int e : m_entries)
        outlines += e >= 0 && size_t(e) < m_scene->entries.size() && m_scene->entries[size_t(e)].report->isOutline();
    const QString what = kind() == StatsKind::KernelSum ? QStringLiteral("kernels") : QStringLiteral("rows");
    const QString compare =
        kind() == StatsKind::KernelSum ? QStringLiteral(" (Compare Runs has their totals)") : QString();
    return outlines == 0 ? QString()
                         : QStringLiteral(" · the %2 of %1 report(s) opened from digest summaries are counted "
                                          "once zoomed into%3")
                               .arg(outlines)
                               .arg(what, compare);
}

void StatsPane::showCrossRank(const QString &rangeName, const QString &style)
{
    if (!m_scene)
        return;
    m_chartJob->run([scene = m_scene, entries = m_entries, rangeName, style](const CancelToken &) {
        return crossRankData(*scene, rangeName, style, entries); // one run's ranks: its own straggler
    });
}

QString StatsPane::visibleCsv() const
{
    QList<int> rows;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        rows << m_proxy->mapToSource(m_proxy->index(r, 0)).row();
    if (rows.isEmpty())
        return m_model->toCsv({-1}); // header only
    return m_model->toCsv(rows);
}

} // namespace ps::views
