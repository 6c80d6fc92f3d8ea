#include "views/timeline/reportpager.h"

#include "core/common/canceltoken.h"
#include "core/trace/persist/tracecache.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/store/report.h"
#include "views/common/latestjob.h"

#include <algorithm>

namespace ps::views {

using namespace ps::core::trace;
using ps::core::CancelToken;

namespace {

// The digest's events through the report cache, memory-mapped when the cache holds them.
ReportPtr loadEvents(const std::string &digest, bool useCache, const CancelToken *cancel, std::string &error)
{
    LoadOptions opt;
    opt.useCache = useCache;
    opt.threads = 1;
    const LoadResult r = loadReports({digest}, opt, {}, cancel);
    if (r.reports.empty()) {
        error = r.failures.empty() ? digest + ": no events loaded" : r.failures.front().reason;
        return nullptr;
    }
    if (useCache && !r.reports.front()->fromCache) // read now: map the cache just written instead
        if (ReportPtr mapped = TraceCache().load(digest))
            return mapped;
    return r.reports.front();
}

// The events of `outline`, prepared for drawing, or why not.
struct PagedEvents
{
    PreparedReportPtr events;
    QString error;
};

PagedEvents pageIn(const PreparedReportPtr &outline, bool useCache, const CancelToken &cancel)
{
    std::string error;
    ReportPtr report = loadEvents(outline->report().path, useCache, &cancel, error);
    if (report) { // the same worker as its outline, whichever way its events came in
        auto same = std::make_shared<Report>(*report);
        same->identity = outline->report().identity;
        report = std::move(same);
    }
    return {report ? PreparedReport::prepare(report, &cancel) : nullptr, QString::fromStdString(error)};
}

} // namespace

ReportPager::ReportPager(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<PreparedReportPtr>();
}

ReportPager::~ReportPager()
{
    cancelLoads(); // the jobs, children of the pager, wait for their workers as they go
}

void ReportPager::cancelLoads()
{
    for (LatestJobBase *job : findChildren<LatestJobBase *>(Qt::FindDirectChildrenOnly))
        job->cancel();
}

void ReportPager::clear()
{
    cancelLoads();
    const std::vector<Paged> paged = std::move(m_paged);
    m_paged.clear();
    m_failed.clear();
    for (const Paged &p : paged)
        if (p.events)
            emit pagedOut(p.events, p.fromDigest);
}

void ReportPager::request(const PreparedReportPtr &outline)
{
    // Not a digest with events, or one whose events failed to load (said once, until clear()).
    if (!core::trace::digestHasEvents(outline->report()) || m_failed.count(outline->report().path))
        return;
    const bool known = std::any_of(m_paged.begin(), m_paged.end(), [&](const Paged &p) {
        return p.fromDigest->report().path == outline->report().path;
    });
    if (known || (m_paged.size() >= kMaxPaged && !dropOldest()))
        return;
    m_paged.push_back({outline, nullptr, m_clock});
    LatestJob<PagedEvents>::once(
        this, [outline, useCache = m_useCache](const CancelToken &cancel) { return pageIn(outline, useCache, cancel); },
        [this, outline](const PagedEvents &r) { arrived(outline, r.events, r.error); });
}

void ReportPager::arrived(const PreparedReportPtr &outline, const PreparedReportPtr &events, const QString &error)
{
    auto it = std::find_if(m_paged.begin(), m_paged.end(), [&](const Paged &p) { return p.fromDigest == outline; });
    if (it == m_paged.end())
        return;
    if (!events) { // said once; not asked for again until the run is opened again
        m_failed.insert(outline->report().path);
        m_paged.erase(it);
        emit failed(error);
        return;
    }
    it->events = events;
    it->lastUse = m_clock;
    emit pagedIn(outline, events);
}

void ReportPager::touch(const PreparedReport *report)
{
    for (Paged &p : m_paged)
        if (p.events.get() == report)
            p.lastUse = m_clock;
}

bool ReportPager::dropOldest()
{
    auto oldest = m_paged.end();
    for (auto it = m_paged.begin(); it != m_paged.end(); ++it)
        if (it->events && it->lastUse < m_clock && (oldest == m_paged.end() || it->lastUse < oldest->lastUse))
            oldest = it;
    if (oldest == m_paged.end())
        return false;
    const Paged dropped = *oldest;
    m_paged.erase(oldest);
    emit pagedOut(dropped.events, dropped.fromDigest);
    return true;
}

} // namespace ps::views
