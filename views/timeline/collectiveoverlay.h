#pragma once
// What the timeline draws from the collectives matched across ranks (views/collectives): on
// every collective kernel's lane its waiting part, hatched, from its own arrival to the
// instance's last arrival; and for the focused instance (the selected kernel's, or the row
// chosen in the Collectives tab) an outline around each member's kernel on every rank and an
// arrow from each member's arrival to the last arrival. Drawn by TimelinePainter between the
// marks and the selection; what was drawn is kept for tests.

#include "views/collectives/collectiveview.h"

#include "views/scene/timemapping.h"

#include <QLineF>
#include <QRect>
#include <QSize>

#include <optional>
#include <vector>

class QPainter;

namespace ps::views {

class RowLayout;
struct Row;

struct DrawnWait
{
    int entry = -1;
    uint32_t instance = 0;
    QRect rect; // widget pixels
};

struct DrawnArrow
{
    int fromRank = -1, toRank = -1;
    QLineF line; // widget pixels, from the member's arrival to the last arrival
};

class CollectiveOverlay
{
public:
    struct Frame; // what TimelinePainter passes: the scene, layout, mapping and visible rows

    void setView(CollectiveViewPtr view) { m_view = std::move(view); }
    const CollectiveViewPtr &view() const { return m_view; }
    void setFocus(std::optional<size_t> instance) { m_focus = instance; }
    std::optional<size_t> focus() const { return m_focus; }
    // The focused instance, when the view has it.
    const core::analysis::CollectiveInstance *focusedInstance() const;

    // The hatched waits (under the names), then the focused instance (over them).
    void paintWaits(QPainter &p, const Frame &f);
    void paintFocus(QPainter &p, const Frame &f);

    const std::vector<DrawnWait> &lastWaits() const { return m_waits; }
    const std::vector<DrawnArrow> &lastArrows() const { return m_arrows; }

private:
    void collectWaits(const Frame &f, const Row &r);
    std::optional<QPointF> arrivalPoint(const Frame &f, const core::analysis::CollectiveMember &m,
                                        QRectF *kernel) const;

    CollectiveViewPtr m_view;
    std::optional<size_t> m_focus;
    std::vector<DrawnWait> m_waits;
    std::vector<DrawnArrow> m_arrows;
};

struct CollectiveOverlay::Frame
{
    const TimelineScene *scene = nullptr;
    const RowLayout *layout = nullptr;
    const TimeMapping *mapping = nullptr;
    int scrollY = 0;
    int labelWidth = 0; // lanes start here
    QSize size;
    int firstRow = 0, lastRow = 0; // the rows on screen
};

} // namespace ps::views
