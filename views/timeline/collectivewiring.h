#pragma once
// The Collectives tab joined to the timeline: its matches drawn on the canvas (hatched waits,
// the focused instance's arrows), the selected kernel's instance named in the details pane and
// selected in the tab, a row chosen in the tab selected and zoomed to in the timeline, and Esc
// on the timeline cancelling a match in progress. Kept out of the workspace, which only adds
// the tab.

#include "views/collectives/collectivespane.h"

class QTabWidget;

namespace ps::views {

class DetailsPane;
class TimelineCanvas;

// Adds the Collectives tab to `tabs` and connects it; the workspace feeds it with setInput.
CollectivesPane *addCollectivesTab(QTabWidget *tabs, TimelineCanvas *canvas, DetailsPane *details);

// Selects an instance in the timeline: its last rank's kernel selected (a digest without events:
// the instance focused), the window zoomed to the members' kernels and the row scrolled to.
void revealCollective(TimelineCanvas &canvas, const CollectiveView &view, size_t instance);

// When some of the instance's members are off the screen: every report folded, the members' to
// the height that fits them all, the groups without one folded, scrolled to them (membersInView).
// True when it changed the layout. A row chosen in the tab does this after revealCollective.
bool bringMembersIntoView(TimelineCanvas &canvas, const CollectiveView &view, size_t instance);

} // namespace ps::views
