#pragma once
// Pages events in for the timeline: a report opened from its digest as an outline is drawn from
// its pyramids until the user zooms in past them; then the painter asks for its events, which
// this loads in the background through the report cache (a digest's events are decompressed into
// the cache once; after that the image is memory-mapped, so only the pages drawn are read),
// prepared for drawing like any report. At most kMaxPaged reports are kept in, the least recently
// asked for dropped first, so memory stays bounded whatever the run's size. The document swaps
// a paged report in for its outline (and back when it is dropped). Each load is a LatestJob of
// its own (LatestJob::once): loads of different reports run side by side.

#include "views/scene/preparedreport.h"

#include <QObject>
#include <QString>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ps::views {

class ReportPager : public QObject
{
    Q_OBJECT
public:
    static constexpr size_t kMaxPaged = 12;

    explicit ReportPager(QObject *parent = nullptr);
    ~ReportPager() override; // cancels and waits for the loads under way (LatestJob)

    // A frame begins: reports touched from now on are in use and are not dropped for another.
    void beginFrame() { ++m_clock; }
    // Starts loading the events of `outline` unless they are in or on their way, or every slot
    // holds a report in use this frame (then the outline stays drawn from its pyramids).
    void request(const PreparedReportPtr &outline);
    // request() for a report the user asked for by name (Go to Rank, a phase-table cell): it takes
    // the slot of the least recently drawn report even when every report in is on screen.
    void requestNow(const PreparedReportPtr &outline)
    {
        beginFrame();
        request(outline);
    }
    // Marks a report as drawn this frame, if it is a paged one.
    void touch(const PreparedReport *report);
    // Drops everything paged (pagedOut for each) and cancels the loads under way.
    void clear();
    void setUseCache(bool on) { m_useCache = on; }
    size_t pagedCount() const { return m_paged.size(); }

signals:
    // `events` replaces `outline`; the same report with its events.
    void pagedIn(const ps::views::PreparedReportPtr &outline, const ps::views::PreparedReportPtr &events);
    // `events` was dropped: show `outline` again.
    void pagedOut(const ps::views::PreparedReportPtr &events, const ps::views::PreparedReportPtr &outline);
    void failed(const QString &reason);

private:
    struct Paged
    {
        PreparedReportPtr fromDigest; // the report as opened from its digest (no events)
        PreparedReportPtr events;     // null while loading
        uint64_t lastUse = 0;
    };
    void arrived(const PreparedReportPtr &outline, const PreparedReportPtr &events, const QString &error);
    void cancelLoads();
    // Frees a slot: drops the least recently used report not used this frame; false if none.
    bool dropOldest();

    std::vector<Paged> m_paged;
    std::set<std::string> m_failed; // digests whose events could not be loaded
    uint64_t m_clock = 0;
    bool m_useCache = true;
};

} // namespace ps::views

Q_DECLARE_METATYPE(ps::views::PreparedReportPtr)
