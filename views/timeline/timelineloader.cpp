#include "views/timeline/timelineloader.h"

#include "core/trace/read/traceloader.h"
#include "views/common/latestjob.h"
#include "views/timeline/foldersummary.h"

#include <QFileInfo>

#include <map>
#include <mutex>
#include <thread>

namespace ps::views {

using namespace ps::core::trace;
using ps::core::CancelToken;

namespace {

// Which files gave a report on screen (several workers call onReport at once).
class FilesShown
{
public:
    explicit FilesShown(size_t n) : m_shown(n, false) {}
    void mark(size_t i)
    {
        const std::lock_guard lock(m_mutex);
        if (i < m_shown.size())
            m_shown[i] = true;
    }
    bool shown(size_t i) const
    {
        const std::lock_guard lock(m_mutex);
        return i < m_shown.size() && m_shown[i];
    }

private:
    mutable std::mutex m_mutex;
    std::vector<bool> m_shown;
};

// Every file of a load is shown, failed or cancelled, exactly one of them: after a cancel, the
// files the core skipped and those loaded but not yet prepared were cancelled, not failed.
LoadOutcome accountForFiles(const std::vector<std::string> &files, const std::vector<LoadFailure> &missing,
                            const LoadResult &r, const FilesShown &shown, bool cancelled)
{
    LoadOutcome out;
    out.wasCancelled = cancelled;
    for (const LoadFailure &f : missing)
        out.failures << QString::fromStdString(f.path + ": " + f.reason);
    std::map<std::string, std::string> failed;
    for (const LoadFailure &f : r.failures)
        failed.emplace(f.path, f.reason.empty() ? f.path : f.reason);
    for (size_t i = 0; i < files.size(); ++i) {
        if (shown.shown(i))
            continue;
        const auto f = failed.find(files[i]);
        const bool stopped = f == failed.end() || f->second == "cancelled" || f->second.ends_with(": cancelled");
        if (cancelled && stopped)
            out.cancelled << QString::fromStdString(files[i]);
        else if (f != failed.end())
            out.failures << QString::fromStdString(f->second);
        else
            out.failures << QString::fromStdString(files[i] + ": read, but holds nothing to draw");
    }
    return out;
}

} // namespace

TimelineLoader::TimelineLoader(QObject *parent)
    : QObject(parent), m_job(new LatestJob<LoadOutcome>(this, [this](const LoadOutcome &out) { finish(out); }))
{
    qRegisterMetaType<std::vector<PreparedReportPtr>>();
    m_job->setDeliverCancelled(true); // a cancelled load still says what became of its files
}

// The job goes first: its worker posts to this loader until it ends.
TimelineLoader::~TimelineLoader()
{
    delete m_job;
}

void TimelineLoader::cancel()
{
    if (m_running)
        m_job->cancel();
}

void TimelineLoader::finish(const LoadOutcome &out)
{
    m_running = false;
    if (!out.ready.empty())
        emit reportsReady(out.ready);
    if (!out.failures.isEmpty())
        emit failed(out.failures);
    if (!out.cancelled.isEmpty())
        emit filesCancelled(out.cancelled);
    emit finished(out.wasCancelled);
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
    m_job->run([this, input, useCache](const CancelToken &token) {
        const CancelToken *cancel = &token;
        std::vector<LoadFailure> missing;
        const std::vector<std::string> files = findReports(input, &missing);
        if (files.empty() && missing.empty()) { // folders that hold no reports: say what they hold
            QStringList found;
            for (const std::string &p : input)
                found << QString::fromStdString(p) + QStringLiteral(": ") +
                             folderSummary(QString::fromStdString(p), cancel);
            if (!cancel->cancelled())
                QMetaObject::invokeMethod(
                    this, [this, found] { emit nothingFound(found); }, Qt::QueuedConnection);
        }
        const int total = int(files.size());
        QMetaObject::invokeMethod(
            this, [this, total] { emit started(total); }, Qt::QueuedConnection);
        LoadOptions opt;
        opt.useCache = useCache;
        opt.digestOutlines = true; // a run of digests shows at once; ReportPager brings events in
        // Each report is prepared on the worker that loaded it and shown as soon as it is ready.
        auto shown = std::make_shared<FilesShown>(files.size());
        opt.onReport = [this, cancel, shown](size_t index, const ReportPtr &rep) {
            if (!rep->hasLayout())
                return;
            if (PreparedReportPtr p = PreparedReport::prepare(rep, cancel)) {
                shown->mark(index);
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
            cancel);
        return accountForFiles(files, missing, r, *shown, cancel->cancelled());
    });
    return true;
}

bool TimelineLoader::addReports(std::vector<ReportPtr> reports)
{
    if (m_running)
        return false;
    m_running = true;
    m_job->run([this, reports = std::move(reports)](const CancelToken &cancel) {
        const int total = int(reports.size());
        QMetaObject::invokeMethod(
            this, [this, total] { emit started(total); }, Qt::QueuedConnection);
        LoadOutcome out;
        for (const ReportPtr &rep : reports) {
            if (cancel.cancelled())
                break;
            if (rep && rep->hasLayout())
                if (auto p = PreparedReport::prepare(rep, &cancel))
                    out.ready.push_back(std::move(p));
        }
        out.wasCancelled = cancel.cancelled();
        return out;
    });
    return true;
}

} // namespace ps::views
