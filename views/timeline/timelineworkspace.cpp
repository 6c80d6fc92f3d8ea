#include "views/timeline/timelineworkspace.h"

#include "views/common/emptystate.h"

#include <QDirIterator>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ps::views {

TimelineWorkspace::TimelineWorkspace(QWidget *parent) : Workspace(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);

    m_empty = new EmptyState("Open reports",
                             "Open the reports of a run — Nsight Systems SQLite exports, one per worker and "
                             "capture range — or a folder that holds them, to line them up on one time axis. "
                             "You can also drop files or folders on the window.",
                             m_stack);
    m_empty->addAction("open-reports", "Open Reports…");
    m_empty->addAction("open-folder", "Open Report Folder…");
    connect(m_empty, &EmptyState::triggered, this, [this](const QString &id) {
        if (id == "open-reports") {
            const QStringList f = QFileDialog::getOpenFileNames(this, "Open Reports");
            if (!f.isEmpty())
                openPaths(f);
        } else if (id == "open-folder") {
            const QString d = QFileDialog::getExistingDirectory(this, "Open Report Folder");
            if (!d.isEmpty())
                openPaths({d});
        }
    });
    m_stack->addWidget(m_empty);

    m_reports = new QTreeWidget(m_stack);
    m_reports->setHeaderLabels({"Report", "Size", "Folder"});
    m_reports->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_stack->addWidget(m_reports);
}

bool TimelineWorkspace::isReportFileName(const QString &fileName)
{
    const QString n = fileName.toLower();
    return n.endsWith(".sqlite") || n.endsWith(".db") || n.endsWith(".nsys-rep") || n.endsWith(".qdrep")
        || n.endsWith(".json") || n.endsWith(".json.gz");
}

bool TimelineWorkspace::accepts(const QString &path) const
{
    const QFileInfo fi(path);
    return fi.isDir() || (fi.isFile() && isReportFileName(fi.fileName()));
}

void TimelineWorkspace::openPaths(const QStringList &paths)
{
    int added = 0;
    auto addFile = [&](const QFileInfo &fi) {
        auto *item = new QTreeWidgetItem(m_reports, {fi.fileName(), QLocale().formattedDataSize(fi.size()),
                                                     fi.absolutePath()});
        item->setToolTip(0, fi.absoluteFilePath());
        ++added;
    };
    for (const QString &p : paths) {
        const QFileInfo fi(p);
        if (fi.isDir()) {
            QDirIterator it(p, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                it.next();
                if (isReportFileName(it.fileName()))
                    addFile(it.fileInfo());
            }
        } else if (fi.isFile()) {
            addFile(fi);
        }
        emit openedPath(fi.absoluteFilePath());
    }
    if (m_reports->topLevelItemCount() > 0)
        m_stack->setCurrentWidget(m_reports);
    emit statusMessage(QString("%1 report(s) opened").arg(added), 5000);
}

} // namespace ps::views
