#include "core/trace/rangeoccurrences.h"

#include "core/trace/tracestats.h"
#include "core/trace/tracesummary.h"

#include <algorithm>
#include <unordered_map>

namespace ps::core::trace {

namespace {

// The names a range of the query may be stored under: the name itself, and for a qualified
// name "<domain>:<text>" the text, for every domain of the store. Empty when none is interned.
std::vector<bool> storedNames(const EventStore &store, const RangeQuery &q)
{
    if (q.name.empty())
        return {}; // the empty name is no range's, though the store interns it
    std::vector<std::string_view> texts{q.name};
    if (q.naming == RangeNaming::Qualified)
        for (const NvtxScope &scope : store.nvtxScopes()) {
            const std::string_view d = store.name(scope.domainName);
            if (!d.empty() && q.name.size() > d.size() && q.name.substr(0, d.size()) == d && q.name[d.size()] == ':')
                texts.push_back(q.name.substr(d.size() + 1));
        }
    std::vector<bool> stored(store.names().size(), false);
    bool any = false;
    for (size_t i = 0; i < store.names().size(); ++i)
        if (std::find(texts.begin(), texts.end(), store.names()[NameId(i)]) != texts.end())
            any = stored[i] = true;
    return any ? stored : std::vector<bool>{};
}

std::vector<RangeHit> fromSummary(const TraceSummary &summary, const RangeQuery &q)
{
    std::vector<RangeHit> out;
    for (const RangeSummary &r : summary.ranges) {
        const std::string &name = q.naming == RangeNaming::Qualified ? r.name : r.text;
        if (name != q.name || (!q.style.empty() && r.style != q.style))
            continue;
        for (const RangeOccurrence &o : r.occurrences)
            out.push_back({o.start, o.start + o.duration, {o.track, o.index}});
    }
    return out;
}

} // namespace

std::vector<RangeHit> findRanges(const EventStore &store, const RangeQuery &q)
{
    std::vector<RangeHit> out;
    const std::vector<bool> stored = storedNames(store, q);
    if (stored.empty())
        return out;
    // Whether (text, scope) makes up a qualified name, decided once per pair: a store has few.
    std::unordered_map<uint64_t, bool> qualifies;
    const auto named = [&](NameId text, uint16_t attr) {
        if (q.naming == RangeNaming::Text)
            return true;
        const uint64_t key = uint64_t(text) << 16 | attr;
        auto it = qualifies.find(key);
        if (it == qualifies.end())
            it = qualifies.emplace(key, nvtxRangeName(store, text, attr) == q.name).first;
        return it->second;
    };
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
        const Track &t = store.track(ti);
        if (!isRangeKind(t.kind()) || (!q.style.empty() && nvtxStyleName(t.kind()) != q.style))
            continue;
        const auto names = t.columns().name;
        for (size_t i = 0; i < names.size(); ++i)
            if (names[i] < stored.size() && stored[names[i]] && named(names[i], t.attr(i)))
                out.push_back({t.start(i), t.end(i), {ti, uint32_t(i)}});
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<RangeHit> findRanges(const Report &report, const RangeQuery &q, std::string &error)
{
    if (hasEvents(report))
        return findRanges(*report.store, q);
    std::vector<RangeHit> out;
    if (const auto summary = summaryOf(report, kTraceSummary, error))
        out = fromSummary(*summary, q);
    std::sort(out.begin(), out.end());
    return out;
}

namespace {
std::vector<std::pair<int64_t, int64_t>> spans(const std::vector<RangeHit> &hits)
{
    std::vector<std::pair<int64_t, int64_t>> out;
    out.reserve(hits.size());
    for (const RangeHit &h : hits)
        out.emplace_back(h.start, h.end);
    return out;
}
} // namespace

std::vector<std::pair<int64_t, int64_t>> rangeOccurrences(const EventStore &store, std::string_view text)
{
    return spans(findRanges(store, {text}));
}

std::vector<std::pair<int64_t, int64_t>> rangeOccurrencesOf(const Report &report, std::string_view text,
                                                            std::string &error)
{
    return spans(findRanges(report, {text}, error));
}

std::optional<std::pair<int64_t, int64_t>> rangeOccurrenceOf(const Report &report, std::string_view text,
                                                             int occurrence)
{
    std::string error; // a digest without a summary has no occurrence to offer, as a report without the range
    const auto hits = rangeOccurrencesOf(report, text, error);
    if (occurrence < 1 || hits.size() < size_t(occurrence))
        return std::nullopt;
    return hits[size_t(occurrence - 1)];
}

} // namespace ps::core::trace
