#include "views/timeline/loadprogress.h"

#include "views/common/problemsbanner.h"
#include "views/timeline/timelinedocument.h"
#include "views/timeline/timelineloader.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>

namespace ps::views {

LoadProgressRow::LoadProgressRow(TimelineDocument *document, ProblemsBanner *problems, QWidget *parent)
    : QWidget(parent), m_doc(document), m_problems(problems)
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(6, 0, 6, 0);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(12);
    m_text = new QLabel(this);
    m_cancel = new QPushButton(QStringLiteral("Cancel"), this);
    row->addWidget(m_text);
    row->addWidget(m_progress, 1);
    row->addWidget(m_cancel);
    hide();
    connect(m_cancel, &QPushButton::clicked, m_doc, &TimelineDocument::cancelLoad);
    // The banner keeps earlier failures until dismissed: a new load adds to it.
    connect(m_doc, &TimelineDocument::loadStarting, this, [this] {
        m_failedCount = m_cancelledCount = 0;
        m_nothingFound = false;
    });
    connect(m_doc, &TimelineDocument::loadCancelling, this, [this] { m_text->setText(QStringLiteral("Cancelling…")); });
    connect(m_doc, &TimelineDocument::loadFinished, this, &LoadProgressRow::loadFinished);
    connectLoader();
}

void LoadProgressRow::connectLoader()
{
    TimelineLoader *loader = m_doc->loader();
    connect(loader, &TimelineLoader::started, this, [this](int total) {
        show();
        m_progress->setValue(0);
        m_text->setText(QStringLiteral("Loading %1 report(s)…").arg(total));
    });
    connect(loader, &TimelineLoader::progress, this, [this](double f, const QString &text) {
        m_progress->setValue(int(f * 1000));
        m_text->setText(text);
    });
    connect(loader, &TimelineLoader::failed, this, [this](const QStringList &reasons) {
        m_failedCount = int(reasons.size());
        m_problems->addProblems(
            QStringLiteral("%1 file(s) could not be loaded; the others are open").arg(reasons.size()), reasons);
    });
    connect(loader, &TimelineLoader::filesCancelled, this, [this](const QStringList &paths) {
        m_cancelledCount = int(paths.size());
        QStringList lines;
        for (const QString &p : paths)
            lines << p + QStringLiteral(": cancelled, not loaded");
        m_problems->addProblems(
            QStringLiteral("Loading cancelled: %1 file(s) not loaded (open them again to load them)").arg(paths.size()),
            lines);
    });
    // What a reader noticed but could read past (rows dropped, tables days apart) is said, not
    // kept in a report's metadata where no one looks.
    connect(loader, &TimelineLoader::reportsReady, this, [this](const std::vector<PreparedReportPtr> &reports) {
        QStringList lines;
        for (const PreparedReportPtr &r : reports) {
            for (const std::string &w : r->report().meta.warnings)
                lines << QString::fromStdString(r->report().path + ": " + w);
            // As for a digest whose name disagrees with it: the recorded identity is used, and said.
            if (const std::string &d = r->report().identity.nameDisagrees; !d.empty())
                lines << QString::fromStdString(r->report().path + ": the name disagrees with the recorded identity (" +
                                                d + "): the recorded one is used");
        }
        if (!lines.isEmpty())
            m_problems->addProblems(
                QStringLiteral("%1 warning(s) while reading; the report(s) are open").arg(lines.size()), lines);
    });
    connect(loader, &TimelineLoader::nothingFound, this, [this](const QStringList &lines) {
        m_nothingFound = true;
        m_problems->addProblems(QStringLiteral("No reports found there"), lines);
        emit statusMessage(QStringLiteral("No reports: ") + lines.join(QStringLiteral("; ")), 0);
    });
}

// "Loading cancelled — 5 report(s), 1,234 events; 2 file(s) could not be loaded; 9 file(s)
// cancelled", the failures and cancels listed in the banner.
void LoadProgressRow::loadFinished(bool cancelled)
{
    hide();
    const auto &reports = m_doc->reports();
    // "No reports found" (nothingFound) stays in the status bar rather than "0 report(s)".
    if (reports.empty() && m_failedCount == 0 && m_cancelledCount == 0 && m_nothingFound)
        return;
    size_t events = 0;
    for (const auto &r : reports)
        events += r->eventCount();
    QString failures;
    if (m_failedCount > 0)
        failures += QStringLiteral("; %1 file(s) could not be loaded (listed above)").arg(m_failedCount);
    if (m_cancelledCount > 0)
        failures += QStringLiteral("; %1 file(s) cancelled (listed above)").arg(m_cancelledCount);
    emit statusMessage(QStringLiteral("%1%2 report(s), %3 events%4")
                           .arg(cancelled ? QStringLiteral("Loading cancelled — ") : QString())
                           .arg(reports.size())
                           .arg(QLocale().toString(qulonglong(events)))
                           .arg(failures),
                       failures.isEmpty() ? 8000 : 0);
}

} // namespace ps::views
