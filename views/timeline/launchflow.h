#pragma once
// The launch flow of the selected event, drawn as Nsight Systems draws it: an arrow from a CUDA
// API call to the GPU work it launched (kernels, copies, sets; matched by correlation id within
// the process, EventStore::apiCallFor / gpuWorkFor). A selected kernel gets one arrow from its
// call; a selected call one to each of its kernels (past kMaxFlows, to the first kMaxFlows in
// time, the others counted). The endpoints are outlined. The arrow leaves the call from the middle
// of its visible part and enters the work at its start, through its middle when the two rows touch
// (a line along their border would read as neither's). An end off the screen (left, right, or a
// row scrolled above or below) is drawn at the lanes' edge with a mark pointing to it. Drawn by TimelinePainter over
// the lanes; what was drawn is kept for tests.

#include "views/timeline/timelineviewstate.h"

#include "views/scene/preparedreport.h"

#include <QLineF>
#include <QSize>

#include <memory>
#include <optional>
#include <vector>

class QPainter;

namespace ps::views {

class RowLayout;
class TimeMapping;
struct RowViewport;
struct TimelineScene;

struct DrawnFlow
{
    core::trace::EventRef api, work; // in the selected entry's report
    QLineF line;                     // widget pixels, from the call to the work
    // An end whose event lies off the screen (beside it, or on a row scrolled away) is drawn at
    // the lanes' edge, marked.
    bool apiOffScreen = false, workOffScreen = false;
};

class LaunchFlow
{
public:
    struct Frame
    {
        const TimelineScene *scene = nullptr;
        const RowLayout *layout = nullptr;
        const TimeMapping *mapping = nullptr;
        const RowViewport *viewport = nullptr;
        int labelWidth = 0; // lanes start here
        int right = 0;      // and end here (the widget's width)
    };

    static constexpr size_t kMaxFlows = 32;

    void paint(QPainter &p, const Frame &f, const std::optional<TimelineSelection> &selection);

    const std::vector<DrawnFlow> &lastFlows() const { return m_drawn; }
    // The selection's launch pairs left without an arrow in the last paint (past kMaxFlows).
    size_t lastLeftOut() const { return m_leftOut; }

private:
    using Pair = std::pair<core::trace::EventRef, core::trace::EventRef>; // (call, work)
    // The launch pairs of the selected event, looked up once per selected event (a lookup may
    // scan the report's GPU tracks; frames repeat while the selection stays).
    const std::vector<Pair> &pairsOf(const PreparedReportPtr &report, core::trace::EventRef selected);

    std::weak_ptr<const PreparedReport> m_pairsReport;
    core::trace::EventRef m_pairsEvent;
    std::vector<Pair> m_pairs;
    size_t m_leftOut = 0;
    std::vector<DrawnFlow> m_drawn;
};

} // namespace ps::views
