#include "views/timeline/collectivewiring.h"

#include "views/timeline/detailspane.h"
#include "views/timeline/membersinview.h"
#include "views/timeline/timelinecanvas.h"

#include <QPushButton>
#include <QTabWidget>

#include <algorithm>
#include <memory>

namespace ps::views {

namespace an = ps::core::analysis;

namespace {

void showNote(const TimelineCanvas &canvas, DetailsPane &details)
{
    const an::CollectiveInstance *inst = canvas.collectiveOverlay().focusedInstance();
    if (inst)
        details.setCollectiveNote(instanceTitle(*inst), instanceSummary(*inst), matchMethodExplained(inst->method));
    else
        details.setCollectiveNote({}, {});
}

// The member to select for an instance: the one that arrived last, else the first.
const an::CollectiveMember &memberToSelect(const an::CollectiveInstance &inst)
{
    const auto last = std::find_if(inst.members.begin(), inst.members.end(),
                                   [&](const an::CollectiveMember &m) { return m.rank == inst.lastRank; });
    return inst.complete && last != inst.members.end() ? *last : inst.members.front();
}

} // namespace

void revealCollective(TimelineCanvas &canvas, const CollectiveView &view, size_t instance)
{
    const TimelineScene *scene = canvas.scene();
    if (!scene || instance >= view.analysis.instances.size() || view.analysis.instances[instance].members.empty())
        return;
    const an::CollectiveInstance &inst = view.analysis.instances[instance];
    const an::CollectiveMember &m = memberToSelect(inst);
    const int entry = view.entries[m.report];
    if (size_t(entry) >= scene->entries.size() ||
        view.reportOf(entry, &scene->entries[size_t(entry)].report->report()) != int(m.report))
        return; // the scene changed since the match
    const PreparedReport &report = *scene->entries[size_t(entry)].report;
    const auto &store = report.store();
    const bool hasEvent = !report.isOutline() && m.event.track < store.tracks().size() &&
                          m.event.index < store.track(m.event.track).size();
    if (hasEvent) {
        canvas.reveal({entry, m.event}); // selects it: the canvas focuses its instance
    } else {
        canvas.select(std::nullopt);
        canvas.focusCollective(instance);
        if (const int row = canvas.layout().reportRowOf(entry); row >= 0)
            canvas.setScrollY(canvas.layout().rows()[size_t(row)].y - canvas.height() / 2);
    }
    // Every member's kernel in view, the arrivals and the transfer, with a margin either side.
    int64_t from = inst.members.front().startNs, to = inst.members.front().endNs;
    for (const an::CollectiveMember &member : inst.members) {
        const int64_t shift = scene->entries[size_t(view.entries[member.report])].offset - view.offsets[member.report];
        from = std::min(from, member.startNs + shift);
        to = std::max(to, member.endNs + shift);
    }
    const int64_t pad = std::max<int64_t>((to - from) / 8, 1000);
    canvas.setWindow({from - pad, to + pad});
}

namespace {
std::set<int> memberEntries(const CollectiveView &view, const an::CollectiveInstance &inst)
{
    std::set<int> entries;
    for (const an::CollectiveMember &m : inst.members)
        if (m.report < view.entries.size())
            entries.insert(view.entries[m.report]);
    return entries;
}
} // namespace

bool bringMembersIntoView(TimelineCanvas &canvas, const CollectiveView &view, size_t instance)
{
    const TimelineScene *scene = canvas.scene();
    if (!scene || instance >= view.analysis.instances.size())
        return false;
    const std::set<int> members = memberEntries(view, view.analysis.instances[instance]);
    if (members.empty() || membersOnScreen(canvas.layout(), members, canvas.scrollY(), canvas.height()))
        return false;
    canvas.setTrackView(membersInView(*scene, canvas.trackView(), members, canvas.height()));
    canvas.setScrollY(scrollToMembers(canvas.layout(), members, canvas.height()));
    return true;
}

CollectivesPane *addCollectivesTab(QTabWidget *tabs, TimelineCanvas *canvas, DetailsPane *details)
{
    auto *pane = new CollectivesPane(tabs);
    tabs->addTab(pane, QStringLiteral("Collectives"));
    QObject::connect(pane, &CollectivesPane::viewReady, canvas, [canvas, details, pane](CollectiveViewPtr view) {
        canvas->setCollectives(std::move(view));
        showNote(*canvas, *details);
        pane->selectInstance(canvas->collectiveOverlay().focus());
    });
    QObject::connect(canvas, &TimelineCanvas::collectiveFocusChanged, pane, [canvas, details, pane] {
        showNote(*canvas, *details);
        pane->selectInstance(canvas->collectiveOverlay().focus());
    });
    // The workspace shows the selected event first (which may clear the pane); the note follows.
    QObject::connect(canvas, &TimelineCanvas::selectionChanged, details,
                     [canvas, details] { showNote(*canvas, *details); });
    // The layout the members replaced, until given back ("Restore the Rows") or a new scene.
    auto before = std::make_shared<std::optional<TrackView>>();
    QPushButton *restore = details->restoreRowsButton();
    QObject::connect(pane, &CollectivesPane::instanceChosen, canvas, [canvas, pane, before, restore](size_t instance) {
        const CollectiveViewPtr view = pane->collectiveView();
        if (!view)
            return;
        const TrackView shown = canvas->trackView(); // the user's, before the reveal unfolds a rank
        revealCollective(*canvas, *view, instance);
        if (bringMembersIntoView(*canvas, *view, instance) && !*before) {
            *before = shown;
            restore->show();
        }
    });
    QObject::connect(restore, &QPushButton::clicked, canvas, [canvas, before, restore] {
        if (*before)
            canvas->setTrackView(**before);
        before->reset();
        restore->hide();
    });
    QObject::connect(pane, &CollectivesPane::viewReady, restore, [before, restore] {
        before->reset(); // a new scene: its report keys may be gone
        restore->hide();
    });
    QObject::connect(canvas, &TimelineCanvas::escapePressed, pane, &CollectivesPane::cancel);
    return pane;
}

} // namespace ps::views
