#pragma once
// The Stats pane: nvtx_sum, kernel_sum, osrt_sum, cuda_api_sum and the gpu_mem reports over the
// visible reports and the visible time range
// (core::trace::summarize with the entries' offsets and the window; sortable, filterable, copy
// as CSV; the Style column only for nvtx_sum), and the cross-rank chart of the range selected
// in the table. Everything is computed on worker threads; a newer request supersedes an older one.

#include "views/scene/timelinescene.h"
#include "views/stats/crossrankdata.h"

#include "core/trace/tracestats.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace ps::views {

class CrossRankChart;
class StatsTableModel;
template <typename T> class LatestJob;

class StatsPane : public QWidget
{
    Q_OBJECT
public:
    explicit StatsPane(QWidget *parent = nullptr);
    ~StatsPane() override;

    // What to summarise; recomputed shortly after the last change.
    void setInput(std::shared_ptr<const TimelineScene> scene, std::vector<int> entries, TimeWindow window);
    void setKind(core::trace::StatsKind kind);
    // Said after the summary, e.g. which of several open runs the statistics cover.
    void setScopeNote(const QString &note);
    // The UTC ns of axis 0 when the timeline is aligned by wall clock: the summary then gives the
    // window in dates, as the axis does; nullopt: in time from the aligned origin.
    void setWallClockOrigin(std::optional<int64_t> origin) { m_wallClockOrigin = origin; }
    QLabel *summary() const { return m_summary; }
    // The scene entries the statistics cover.
    const std::vector<int> &entries() const { return m_entries; }
    core::trace::StatsKind kind() const;
    // Shows the cross-rank chart of an nvtx_sum Range ("domain:text" or "text"), of one Style
    // ("PushPop" / "StartEnd") or, when `style` is empty, of both.
    void showCrossRank(const QString &rangeName, const QString &style = {});

    StatsTableModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    QComboBox *kindPicker() const { return m_kind; }
    CrossRankChart *chart() const { return m_chart; }
    QLineEdit *filterEdit() const { return m_filter; }
    // CSV of the rows shown (filtered, in view order).
    QString visibleCsv() const;
    // True from a change of input until its results are shown.
    bool isBusy() const;
    // Selects the row of `name` (a Range or kernel name as the table shows it), switching the
    // table to `kind` first; when the rows are being recomputed, once they arrive.
    void selectName(const QString &name, core::trace::StatsKind kind);
    // Recomputes now if a change is waiting out the debounce.
    void flushDeferred();

signals:
    void jumpTo(int entry, ps::core::trace::EventRef ref);
    void busyChanged(bool busy);

private:
    void nameKindsInFormatWords();
    QString outlineNote() const;
    void recompute();
    void applyPendingSelection(bool quietly);
    void showRows(std::vector<core::trace::StatRow> rows);

    QComboBox *m_kind = nullptr;
    QLineEdit *m_filter = nullptr;
    QLabel *m_summary = nullptr;
    QString m_scopeNote;
    std::optional<int64_t> m_wallClockOrigin;
    QTableView *m_table = nullptr;
    StatsTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    CrossRankChart *m_chart = nullptr;
    QTimer *m_debounce = nullptr;
    QString m_pendingName;    // selectName() waiting for rows
    bool m_restoring = false; // reselecting after new rows: the chart stays as it is

    std::shared_ptr<const TimelineScene> m_scene;
    std::vector<int> m_entries;
    TimeWindow m_window;
    LatestJob<std::vector<core::trace::StatRow>> *m_rowsJob = nullptr;
    core::trace::StatsKind m_rowsKind = core::trace::StatsKind::NvtxSum; // of the newest rows job
    LatestJob<CrossRankData> *m_chartJob = nullptr;
};

} // namespace ps::views
