#include "views/timeline/eventsearch.h"

#include "core/common/canceltoken.h"
#include "core/trace/store/report.h"

#include <algorithm>
#include <map>

namespace ps::views {

using namespace ps::core::trace;

namespace {
std::shared_ptr<const std::vector<bool>> matchNames(const EventStore &store, const SearchQuery &q,
                                                    const QRegularExpression &re, bool &any)
{
    auto out = std::make_shared<std::vector<bool>>(store.names().size(), false);
    const NameTable &names = store.names();
    for (size_t i = 1; i < names.size(); ++i) {
        const std::string_view n = names[NameId(i)];
        const QString s = QString::fromUtf8(n.data(), qsizetype(n.size()));
        const bool m = q.regex ? re.match(s).hasMatch() : s.contains(q.text, Qt::CaseInsensitive);
        if (m)
            any = (*out)[i] = true;
    }
    return out;
}
} // namespace

SearchResult searchEvents(const TimelineScene &scene, const SearchQuery &query, const core::CancelToken *cancel)
{
    SearchResult r;
    r.query = query;
    r.matchedNames.resize(scene.entries.size());
    if (query.isEmpty())
        return r;
    QRegularExpression re;
    if (query.regex) {
        re = QRegularExpression(query.text, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid()) {
            r.error = re.errorString();
            return r;
        }
    }
    // Entries sharing a report (step overlay) share its name match.
    std::map<const PreparedReport *, std::pair<std::shared_ptr<const std::vector<bool>>, bool>> done;
    for (size_t ei = 0; ei < scene.entries.size(); ++ei) {
        if (cancel && cancel->cancelled())
            break;
        const TimelineEntry &e = scene.entries[ei];
        auto it = done.find(e.report.get());
        if (it == done.end()) {
            bool any = false;
            auto m = matchNames(e.report->store(), query, re, any);
            it = done.emplace(e.report.get(), std::make_pair(m, any)).first;
        }
        r.matchedNames[ei] = it->second.first;
        r.digestsNotCounted += e.report->isOutline() && it->second.second;
        if (!it->second.second)
            continue;
        const std::vector<bool> &match = *it->second.first;
        const EventStore &store = e.report->store();
        for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
            const Track &t = store.track(ti);
            const auto names = t.columns().name;
            for (size_t i = 0; i < names.size(); ++i) {
                if (names[i] >= match.size() || !match[names[i]])
                    continue;
                ++r.count;
                if (r.matches.size() < SearchResult::kMaxKept)
                    r.matches.push_back({int(ei), ti, uint32_t(i), t.start(i) + e.offset});
            }
        }
    }
    std::stable_sort(r.matches.begin(), r.matches.end(), [](const SearchMatch &a, const SearchMatch &b) {
        return a.start != b.start ? a.start < b.start : a.entry < b.entry;
    });
    return r;
}

} // namespace ps::views
