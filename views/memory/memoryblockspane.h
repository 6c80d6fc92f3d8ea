#pragma once
// The Memory tab: what holds the memory at the point the user clicked on a memory lane. For a
// CUDA memory snapshot, the live blocks there by allocation site (as `trace memory` groups them),
// largest first, each site opening to its blocks (size, where it was allocated, how long before
// the point, address); each block opens to its stack, user frames first and the torch
// internals folded under one row, and the device's OOMs are listed above. For a memory-timeline
// export, the bytes per category. The snapshot is read in the background (Esc cancels) and the
// last one read is kept, so further clicks on the same rank answer without reading it again.

#include "views/common/latestjob.h"
#include "views/memory/memoryblocksquery.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace ps::views {

class MemoryBlocksPane : public QWidget
{
    Q_OBJECT
public:
    explicit MemoryBlocksPane(QWidget *parent = nullptr);

    // Lists what is live at `point` (the previous answer stays until the new one arrives).
    void showPoint(MemoryPoint point);
    // The point shown or being worked out; none before the first.
    const std::optional<MemoryPoint> &point() const { return m_point; }
    bool isBusy() const { return m_job->isBusy(); }
    void cancel();

    QString headingText() const;
    QTreeWidget *tree() const { return m_tree; }

signals:
    void busyChanged(bool busy);
    // "Show blocks at the peak": of the lane shown, or of the run's highest peak before any.
    void peakRequested();

private:
    void show(const MemoryBlocks &blocks);
    QTreeWidgetItem *blockItem(const MemoryBlockRow &row) const;
    QTreeWidgetItem *siteItem(const MemorySiteRow &site, const std::vector<MemoryBlockRow> &blocks) const;
    void addOoms(const MemoryBlocks &blocks);

    QLabel *m_heading = nullptr;
    QPushButton *m_peak = nullptr;
    QTreeWidget *m_tree = nullptr;
    LatestJob<MemoryBlocks> *m_job = nullptr;
    std::optional<MemoryPoint> m_point;
    // The last snapshot read (superseded answers' too): clicks on the same report reuse it.
    std::shared_ptr<const core::trace::MemorySnapshot> m_snapshot;
};

} // namespace ps::views
