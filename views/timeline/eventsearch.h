#pragma once
// Search over event names: the query is matched once per distinct name of each report (names
// are interned), then the tracks' name-id columns are scanned, so a search costs one string
// test per name plus one table lookup per event. Runs on a worker thread; the result is an
// immutable value.

#include "core/common/canceltoken.h"

#include "views/scene/timelinescene.h"

#include <QRegularExpression>
#include <QString>

#include <memory>
#include <vector>

namespace ps::views {

struct SearchQuery
{
    QString text;
    bool regex = false;
    bool isEmpty() const { return text.isEmpty(); }
};

struct SearchMatch
{
    int entry = 0;
    uint32_t track = 0;
    uint32_t index = 0;
    int64_t start = 0; // shared axis
};

struct SearchResult
{
    SearchQuery query;
    QString error;    // e.g. an invalid regular expression
    size_t count = 0; // every match
    // Reports opened from digests without their events (outlines): their matching names are
    // outlined on the timeline, but their events are only counted once paged in.
    size_t digestsNotCounted = 0;
    std::vector<SearchMatch> matches; // ordered by shared start, then entry; at most kMaxKept
    // Per entry, per name id: does the name match (the painter outlines matching boxes).
    std::vector<std::shared_ptr<const std::vector<bool>>> matchedNames;
    static constexpr size_t kMaxKept = 2'000'000;

    bool nameMatches(int entry, core::trace::NameId name) const
    {
        if (entry < 0 || size_t(entry) >= matchedNames.size() || !matchedNames[size_t(entry)])
            return false;
        const auto &v = *matchedNames[size_t(entry)];
        return name < v.size() && v[name];
    }
};

// Case-insensitive substring, or a regular expression (case-insensitive) when query.regex.
// Returns early with what it has when `cancel` becomes true.
SearchResult searchEvents(const TimelineScene &scene, const SearchQuery &query,
                          const core::CancelToken *cancel = nullptr);

} // namespace ps::views
