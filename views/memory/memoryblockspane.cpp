#include "views/memory/memoryblockspane.h"

#include "views/memory/memorycategories.h"
#include "views/scene/timeformat.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ps::views {

namespace tr = ps::core::trace;

namespace {

enum Column { kBytes, kSite, kWhen, kAddress, kColumns };

QString frameText(const tr::MemFrame &f)
{
    const QString file = QString::fromStdString(f.file);
    const QString base =
        file.mid(std::max(file.lastIndexOf(QLatin1Char('/')), file.lastIndexOf(QLatin1Char('\\'))) + 1);
    return QStringLiteral("%1  %2:%3").arg(QString::fromStdString(f.name), base).arg(f.line);
}

QTreeWidgetItem *frameItem(const tr::MemFrame &f)
{
    auto *item = new QTreeWidgetItem();
    item->setText(kSite, frameText(f));
    item->setToolTip(
        kSite,
        QStringLiteral("%1\n%2:%3").arg(QString::fromStdString(f.name), QString::fromStdString(f.file)).arg(f.line));
    return item;
}

} // namespace

MemoryBlocksPane::MemoryBlocksPane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_heading = new QLabel(QStringLiteral("Click a point of a memory lane to list what holds the memory there."), this);
    m_heading->setWordWrap(true);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("memoryBlocks"));
    m_tree->setColumnCount(kColumns);
    m_tree->setHeaderLabels({QStringLiteral("Bytes"), QStringLiteral("Allocated by (user frames first)"),
                             QStringLiteral("Allocated"), QStringLiteral("Address")});
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(kSite, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    m_peak = new QPushButton(QStringLiteral("Show Blocks at the Peak"), this);
    m_peak->setObjectName(QStringLiteral("memoryPeak"));
    m_peak->setToolTip(QStringLiteral("What the lane's device held right after the allocation that made its peak (as "
                                      "trace memory names it); before any click, the run's highest peak"));
    connect(m_peak, &QPushButton::clicked, this, &MemoryBlocksPane::peakRequested);
    auto *top = new QHBoxLayout;
    top->addWidget(m_heading, 1);
    top->addWidget(m_peak, 0, Qt::AlignTop);
    layout->addLayout(top);
    layout->addWidget(m_tree, 1);
    m_job = new LatestJob<MemoryBlocks>(this, [this](const MemoryBlocks &b) { show(b); });
    m_job->setSeen([this](const MemoryBlocks &b) {
        if (b.snapshot)
            m_snapshot = b.snapshot;
    });
    connect(m_job, &LatestJobBase::busyChanged, this, &MemoryBlocksPane::busyChanged);
}

void MemoryBlocksPane::showPoint(MemoryPoint point)
{
    m_point = point;
    m_heading->setText(QStringLiteral("%1: reading…").arg(point.title()));
    m_job->run([point = std::move(point), cached = m_snapshot](const CancelToken &cancel) {
        return queryMemoryBlocks(point, cached, cancel);
    });
}

void MemoryBlocksPane::cancel()
{
    if (!m_job->isBusy())
        return;
    m_job->cancel();
    m_heading->setText(QStringLiteral("Cancelled."));
}

QString MemoryBlocksPane::headingText() const
{
    return m_heading->text();
}

QTreeWidgetItem *MemoryBlocksPane::blockItem(const MemoryBlockRow &row) const
{
    auto *item = new QTreeWidgetItem();
    item->setText(kBytes, memoryBytesText(row.bytes));
    item->setData(kBytes, Qt::UserRole, qint64(row.bytes));
    item->setTextAlignment(kBytes, Qt::AlignRight | Qt::AlignVCenter);
    const std::vector<tr::MemFrame> &first = row.userFrames.empty() ? row.internalFrames : row.userFrames;
    item->setText(kSite, first.empty() ? QStringLiteral("(no stack recorded)") : frameText(first.front()));
    item->setText(kWhen, row.agoNs ? QStringLiteral("%1 before").arg(formatDuration(*row.agoNs))
                                   : QStringLiteral("before the recorded history"));
    item->setText(kAddress, QStringLiteral("0x%1").arg(row.addr, 0, 16));
    for (const tr::MemFrame &f : row.userFrames)
        item->addChild(frameItem(f));
    if (!row.internalFrames.empty()) {
        auto *folded = new QTreeWidgetItem(item);
        folded->setText(kSite, QStringLiteral("%1 torch-internal frame(s)").arg(row.internalFrames.size()));
        folded->setForeground(kSite, QColor(0x75, 0x75, 0x75));
        for (const tr::MemFrame &f : row.internalFrames)
            folded->addChild(frameItem(f));
    }
    return item;
}

QTreeWidgetItem *MemoryBlocksPane::siteItem(const MemorySiteRow &site, const std::vector<MemoryBlockRow> &blocks) const
{
    auto *item = new QTreeWidgetItem();
    item->setText(kBytes, memoryBytesText(site.bytes));
    item->setData(kBytes, Qt::UserRole, qint64(site.bytes));
    item->setTextAlignment(kBytes, Qt::AlignRight | Qt::AlignVCenter);
    const QString where = site.userFrames.empty() ? QStringLiteral("(no user frames)") : frameText(site.userFrames[0]);
    item->setText(kSite,
                  QStringLiteral("%1 — %2 block%3").arg(where).arg(site.blocks).arg(site.blocks == 1 ? "" : "s"));
    QStringList stack;
    for (const tr::MemFrame &f : site.userFrames)
        stack << frameText(f);
    item->setToolTip(kSite, stack.join(QLatin1Char('\n')) +
                                (site.foldedFrames ? QStringLiteral("\n(%1 torch frames folded)").arg(site.foldedFrames)
                                                   : QString()));
    QList<QTreeWidgetItem *> children;
    for (size_t r : site.rows)
        children.append(blockItem(blocks[r]));
    item->addChildren(children);
    if (qsizetype(site.blocks) > children.size()) {
        auto *more = new QTreeWidgetItem(item);
        more->setText(kSite, QStringLiteral("… %1 smaller blocks not listed").arg(site.blocks - children.size()));
        more->setForeground(kSite, QColor(0x75, 0x75, 0x75));
    }
    return item;
}

void MemoryBlocksPane::addOoms(const MemoryBlocks &blocks)
{
    for (const tr::MemoryOom &o : blocks.ooms) {
        auto *item = new QTreeWidgetItem(m_tree);
        item->setText(kBytes, memoryBytesText(o.bytes));
        item->setText(kSite, QStringLiteral("OOM: requested %1 with %2 free on the device")
                                 .arg(memoryBytesText(o.bytes), memoryBytesText(o.deviceFree)));
        item->setText(kWhen, o.timeNs
                                 ? QStringLiteral("%1 %2").arg(formatDuration(std::abs(m_point->timeNs - *o.timeNs)),
                                                               *o.timeNs <= m_point->timeNs ? QStringLiteral("before")
                                                                                            : QStringLiteral("after"))
                                 : QString());
        for (int c = 0; c < kColumns; ++c)
            item->setForeground(c, QColor(0xc6, 0x28, 0x28));
    }
}

void MemoryBlocksPane::show(const MemoryBlocks &blocks)
{
    if (blocks.peakTimeNs && m_point) // the peak's entry was found: the point is its time
        m_point->timeNs = *blocks.peakTimeNs;
    m_heading->setText(blocks.heading);
    m_tree->clear();
    if (blocks.failed)
        return;
    addOoms(blocks);
    for (const auto &[category, bytes] : blocks.categories) {
        auto *item = new QTreeWidgetItem(m_tree);
        item->setText(kBytes, memoryBytesText(bytes));
        item->setText(kSite, QString::fromLatin1(tr::kMemoryCategories[category].data(),
                                                 qsizetype(tr::kMemoryCategories[category].size())));
        QPixmap swatch(10, 10); // the category's colour, as its band on the lane
        swatch.fill(QColor::fromRgb(memoryCategoryColor(category)));
        item->setIcon(kSite, QIcon(swatch));
    }
    QList<QTreeWidgetItem *> items;
    items.reserve(qsizetype(blocks.sites.size()));
    for (const MemorySiteRow &site : blocks.sites)
        items.append(siteItem(site, blocks.blocks));
    m_tree->addTopLevelItems(items);
    if (items.size() == 1)
        items.front()->setExpanded(true);
    for (int c : {kBytes, kWhen, kAddress})
        m_tree->resizeColumnToContents(c);
}

} // namespace ps::views
