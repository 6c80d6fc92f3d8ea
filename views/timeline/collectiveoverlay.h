#pragma once
// What the timeline draws from the collectives matched across ranks (views/collectives): on
// every collective kernel's lane its waiting part, hatched, from its own arrival to the
// instance's last arrival; and for the focused instance (the selected kernel's, or the row
// chosen in the Collectives tab) an outline around each member's kernel on every rank and an
// arrow from each member's arrival to the last arrival (past kMaxArrows members, from the longest
// waits only, the others counted in a note). Drawn by TimelinePainter between the
// marks and the selection; what was drawn is kept for tests.

#include "views/collectives/collectiveview.h"

#include "views/scene/timemapping.h"

#include <QLineF>
#include <QRect>
#include <QSize>
#include <QString>

#include <optional>
#include <vector>

class QPainter;

namespace ps::views {

class RowLayout;
struct Row;
struct RowViewport;

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

    // Forgets what the last frame drew.
    void beginFrame();
    // The hatched waits of the frame's rows (under the names; once per band of rows), then the
    // focused instance (over them).
    void paintWaits(QPainter &p, const Frame &f);
    void paintFocus(QPainter &p, const Frame &f);

    // Past this many waiting members only the kShownArrows longest waits get an arrow.
    static constexpr size_t kMaxArrows = 16;
    static constexpr size_t kShownArrows = 8;

    const std::vector<DrawnWait> &lastWaits() const { return m_waits; }
    const std::vector<DrawnArrow> &lastArrows() const { return m_arrows; }
    // Waiting members left without an arrow in the last paint, and the note saying so ("" if none).
    size_t lastArrowsLeftOut() const { return m_leftOut; }
    const QString &lastNote() const { return m_note; }

private:
    void collectWaits(const Frame &f, const Row &r);
    void paintNote(QPainter &p, QPointF last, const core::analysis::CollectiveInstance &inst, int width);
    std::optional<QPointF> arrivalPoint(const Frame &f, const core::analysis::CollectiveMember &m,
                                        QRectF *kernel) const;

    CollectiveViewPtr m_view;
    std::optional<size_t> m_focus;
    std::vector<DrawnWait> m_waits;
    std::vector<DrawnArrow> m_arrows;
    size_t m_leftOut = 0;
    QString m_note;
};

struct CollectiveOverlay::Frame
{
    const TimelineScene *scene = nullptr;
    const RowLayout *layout = nullptr;
    const TimeMapping *mapping = nullptr;
    int scrollY = 0;
    int labelWidth = 0; // lanes start here
    QSize size;
    int firstRow = 0, lastRow = 0;         // the rows of the band drawn
    int shift = 0;                         // the painter's vertical shift for this band (the Pinned section)
    const RowViewport *viewport = nullptr; // where rows are on screen (paintFocus)
};

} // namespace ps::views
