#include "views/timeline/membersinview.h"

#include <algorithm>

namespace ps::views {

TrackView membersInView(const TimelineScene &scene, const TrackView &current, const std::set<int> &members, int height)
{
    TrackView v = current;
    v.foldedReportHeight = 0;
    QSet<QString> memberGroups, otherGroups;
    for (size_t i = 0; i < scene.entries.size(); ++i) {
        const TimelineEntry &e = scene.entries[i];
        const QStringList keys = RowLayout::keysHiding(e); // its report's, then its groups'
        v.collapsed.insert(keys.front());
        for (qsizetype k = 1; k < keys.size(); ++k)
            (members.count(int(i)) ? memberGroups : otherGroups).insert(keys[k]);
    }
    for (const QString &key : memberGroups)
        v.collapsed.remove(key);
    for (const QString &key : otherGroups - memberGroups)
        v.collapsed.insert(key);
    if (members.empty())
        return v;
    // Everything but the members' rows keeps its height; the members share what is left.
    const RowLayout folded(scene, v);
    int membersHeight = 0;
    for (const Row &r : folded.rows())
        if (r.kind == RowKind::Report && members.count(r.entry))
            membersHeight += r.height;
    const int others = folded.totalHeight() - membersHeight;
    const int each = (height - others - 4) / int(members.size());
    if (each < RowLayout::kHeaderHeight)
        v.foldedReportHeight = std::max(kMinMemberHeight, each);
    return v;
}

bool membersOnScreen(const RowLayout &layout, const std::set<int> &members, int scroll, int height)
{
    std::set<int> seen;
    for (const Row &r : layout.rows())
        if (r.entry >= 0 && members.count(r.entry) && r.y >= scroll && r.bottom() <= scroll + height)
            seen.insert(r.entry);
    return seen.size() == members.size();
}

int scrollToMembers(const RowLayout &layout, const std::set<int> &members, int height)
{
    const auto &rows = layout.rows();
    const auto first = std::find_if(rows.begin(), rows.end(),
                                    [&](const Row &r) { return r.kind == RowKind::Report && members.count(r.entry); });
    if (first == rows.end())
        return 0;
    int top = first->y;
    for (auto it = std::make_reverse_iterator(first); it != rows.rend() && it->kind == RowKind::Group; ++it)
        top = it->y; // its group headers stay above it
    return std::clamp(top, 0, std::max(0, layout.totalHeight() - height));
}

} // namespace ps::views
