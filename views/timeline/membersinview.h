#pragma once
// A collective's members brought onto one screen (#38): at laptop size an expanded rank is about
// 290 px tall, so the arrows of a 64-rank instance came from ranks scrolled away. The members'
// reports are folded to the height that lets all of them fit (at least kMinMemberHeight px, a
// strip of its GPU activity), the groups without a member folded, and the layout the user had
// kept to go back to in one click.

#include "views/timeline/rowlayout.h"

#include <set>

namespace ps::views {

inline constexpr int kMinMemberHeight = 3;

// The track view that shows every entry of `members` on a canvas `height` px tall: every report
// folded, the members' drawn max(kMinMemberHeight, what fits) px high (a header's height when
// they fit at that), the groups holding no member folded and those holding one open. The rest of
// `current` (hidden and pinned lanes, order) is kept.
TrackView membersInView(const TimelineScene &scene, const TrackView &current, const std::set<int> &members, int height);

// True when every member's report row or one of its lanes lies inside [scroll, scroll + height).
bool membersOnScreen(const RowLayout &layout, const std::set<int> &members, int scroll, int height);

// The scroll that puts the first member's row near the top, its group headers above it.
int scrollToMembers(const RowLayout &layout, const std::set<int> &members, int height);

} // namespace ps::views
