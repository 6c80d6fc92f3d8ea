#include "views/timeline/timelineloader.h"

#include "core/trace/traceloader.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <thread>

namespace ps::views {

using namespace ps::core::trace;

TimelineLoader::TimelineLoader(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<std::vector<PreparedReportPtr>>();
}

TimelineLoader::~TimelineLoader()
{
    if (m_cancel)
        m_cancel->cancel();
    m_future.waitForFinished();
}

void TimelineLoader::cancel()
{
    if (m_cancel)
        m_cancel->cancel();
}

void TimelineLoader::run(std::function<void()> work)
{
    m_future = QtConcurrent::run(std::move(work));
}

bool TimelineLoader::load(const QStringList &paths)
{
    if (m_running)
        return false;
    std::vector<std::string> input;
    for (const QString &p : paths)
        input.push_back(p.toStdString());
    const bool useCache = m_useCache;
    m_running = true;
    m_cancel = std::make_shared<CancelToken>();
    run([this, input, useCache, cancel = m_cancel] {
        std::vector<LoadFailure> missing;
        const std::vector<std::string> files = findReports(input, &missing);
        QStringList failures;
        for (const LoadFailure &f : missing)
            failures << QString::fromStdString(f.path + ": " + f.reason);
        const int total = int(files.size());
        QMetaObject::invokeMethod(
            this, [this, total] { emit started(total); }, Qt::QueuedConnection);
        LoadOptions opt;
        opt.useCache = useCache;
        opt.digestOutlines = true; // a run of digests shows at once; ReportPager brings events in
        // Each report is prepared on the worker that loaded it and shown as soon as it is ready.
        opt.onReport = [this, cancel](size_t, const ReportPtr &rep) {
            if (!rep->store)
                return;
            if (PreparedReportPtr p = PreparedReport::prepare(rep, cancel.get())) {
                const std::vector<PreparedReportPtr> ready{std::move(p)};
                QMetaObject::invokeMethod(
                    this, [this, ready] { emit reportsReady(ready); }, Qt::QueuedConnection);
            }
        };
        const LoadResult r = loadReports(
            files, opt,
            [this](const LoadProgress &p) {
                const double f = p.fraction * 0.95;
                const QString text =
                    QStringLiteral("Loading %1").arg(QFileInfo(QString::fromStdString(p.path)).fileName());
                QMetaObject::invokeMethod(
                    this, [this, f, text] { emit progress(f, text); }, Qt::QueuedConnection);
            },
            cancel.get());
        for (const LoadFailure &f : r.failures)
            failures << QString::fromStdString(f.reason.empty() ? f.path : f.reason);
        const bool cancelled = cancel->cancelled();
        QMetaObject::invokeMethod(
            this,
            [this, failures, cancelled] {
                m_running = false;
                if (!failures.isEmpty())
                    emit failed(failures);
                emit finished(cancelled);
            },
            Qt::QueuedConnection);
    });
    return true;
}

bool TimelineLoader::addReports(std::vector<ReportPtr> reports)
{
    if (m_running)
        return false;
    m_running = true;
    m_cancel = std::make_shared<CancelToken>();
    run([this, reports = std::move(reports), cancel = m_cancel] {
        const int total = int(reports.size());
        QMetaObject::invokeMethod(
            this, [this, total] { emit started(total); }, Qt::QueuedConnection);
        std::vector<PreparedReportPtr> ready;
        for (const ReportPtr &rep : reports) {
            if (cancel->cancelled())
                break;
            if (rep && rep->store)
                if (auto p = PreparedReport::prepare(rep, cancel.get()))
                    ready.push_back(std::move(p));
        }
        const bool cancelled = cancel->cancelled();
        QMetaObject::invokeMethod(
            this,
            [this, ready, cancelled] {
                m_running = false;
                if (!ready.empty())
                    emit reportsReady(ready);
                emit finished(cancelled);
            },
            Qt::QueuedConnection);
    });
    return true;
}

} // namespace ps::views
