#include "core/trace/tracesummary.h"

#include "core/common/jsonwriter.h"
#include "core/trace/persist/reportoutline.h"
#include "core/trace/tracestats.h"

#include <simdjson.h>

#include <algorithm>
#include <unordered_map>

namespace ps::core::trace {

namespace od = simdjson::ondemand;

namespace {

std::vector<RangeSummary> rangeSummaries(const EventStore &store)
{
    // By (name, style); one name is one text (and domain), so a summary's text is its events'.
    std::map<std::pair<std::string, std::string>, RangeSummary> byKey;
    std::unordered_map<uint64_t, RangeSummary *> byEvent; // (kind, text, scope) -> its summary
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
        const Track &t = store.track(ti);
        if (!isRangeKind(t.kind()))
            continue;
        const std::string style(nvtxStyleName(t.kind()));
        for (size_t i = 0; i < t.size(); ++i) {
            const uint64_t key = uint64_t(t.kind()) << 48 | uint64_t(t.name(i)) << 16 | t.attr(i);
            RangeSummary *&s = byEvent[key];
            if (!s) {
                const std::string name = nvtxRangeName(store, t.name(i), t.attr(i));
                s = &byKey[{name, style}];
                s->name = name;
                s->text = std::string(store.name(t.name(i)));
                s->style = style;
            }
            ++s->count;
            s->totalNs += t.duration(i);
            if (s->occurrences.size() < kMaxRangeOccurrences)
                s->occurrences.push_back({t.start(i), t.duration(i), ti, uint32_t(i)});
        }
    }
    std::vector<RangeSummary> out;
    for (auto &[key, s] : byKey) {
        std::stable_sort(s.occurrences.begin(), s.occurrences.end(),
                         [](const RangeOccurrence &a, const RangeOccurrence &b) { return a.start < b.start; });
        out.push_back(std::move(s));
    }
    return out;
}

void writeTotals(JsonWriter &w, std::string_view key, const std::map<std::string, int64_t> &totals)
{
    w.key(key).beginObject();
    for (const auto &[name, ns] : totals)
        w.key(name).value(ns);
    w.endObject();
}

int64_t intOf(od::value v)
{
    int64_t n = 0;
    if (v.get_int64().get(n) != simdjson::SUCCESS)
        throw std::runtime_error("a value is not an integer");
    return n;
}

int64_t intField(od::object &o, std::string_view key)
{
    od::value v;
    if (o[key].get(v) != simdjson::SUCCESS)
        throw std::runtime_error("missing \"" + std::string(key) + "\"");
    return intOf(v);
}

std::string textField(od::object &o, std::string_view key)
{
    std::string_view s;
    if (o[key].get_string().get(s) != simdjson::SUCCESS)
        throw std::runtime_error("missing \"" + std::string(key) + "\"");
    return std::string(s);
}

void readTotals(od::object &doc, std::string_view key, std::map<std::string, int64_t> &out)
{
    od::object o;
    if (doc[key].get_object().get(o) != simdjson::SUCCESS)
        throw std::runtime_error("missing \"" + std::string(key) + "\"");
    for (auto field : o) {
        std::string_view name;
        if (field.unescaped_key().get(name) != simdjson::SUCCESS)
            throw std::runtime_error("a bad name in \"" + std::string(key) + "\"");
        out[std::string(name)] = intOf(field.value());
    }
}

RangeSummary readRange(od::object &r)
{
    RangeSummary s;
    s.name = textField(r, "name");
    s.text = textField(r, "text");
    s.style = textField(r, "style");
    s.count = size_t(intField(r, "count"));
    s.totalNs = intField(r, "total_ns");
    od::array occ;
    if (r["occurrences"].get_array().get(occ) != simdjson::SUCCESS)
        throw std::runtime_error("missing \"occurrences\"");
    for (auto item : occ) {
        int64_t v[4] = {};
        size_t n = 0;
        for (auto x : item.get_array())
            v[n < 4 ? n++ : 3] = intOf(x.value());
        if (n != 4)
            throw std::runtime_error("an occurrence is not [start, duration, track, index]");
        s.occurrences.push_back({v[0], v[1], uint32_t(v[2]), uint32_t(v[3])});
    }
    return s;
}

} // namespace

TraceSummary summarizeForDigest(const Report &report)
{
    const ReportPtr one(std::shared_ptr<const Report>(), &report); // not owned: only read here
    TraceSummary s;
    s.kernelTotals = totalsByName(std::span(&one, 1), StatsKind::KernelSum).value_or(s.kernelTotals);
    s.rangeTotals = totalsByName(std::span(&one, 1), StatsKind::NvtxSum).value_or(s.rangeTotals);
    s.ranges = rangeSummaries(*report.store);
    return s;
}

std::string encodeTraceSummary(const TraceSummary &summary)
{
    JsonWriter w(0);
    w.beginObject().key("version").value(1);
    writeTotals(w, "kernels", summary.kernelTotals);
    writeTotals(w, "ranges_total", summary.rangeTotals);
    w.key("ranges").beginArray();
    for (const RangeSummary &r : summary.ranges) {
        w.beginObject().key("name").value(r.name).key("text").value(r.text).key("style").value(r.style);
        w.key("count").value(uint64_t(r.count)).key("total_ns").value(r.totalNs);
        w.key("occurrences").beginArray();
        for (const RangeOccurrence &o : r.occurrences)
            w.beginArray()
                .value(o.start)
                .value(o.duration)
                .value(uint64_t(o.track))
                .value(uint64_t(o.index))
                .endArray();
        w.endArray().endObject();
    }
    w.endArray().endObject();
    return w.str();
}

bool decodeTraceSummary(std::string_view json, TraceSummary &summary, std::string &error)
{
    try {
        od::parser parser;
        const simdjson::padded_string padded(json);
        od::document doc = parser.iterate(padded);
        od::object o = doc.get_object();
        if (intField(o, "version") != 1)
            throw std::runtime_error("an unknown summary version");
        readTotals(o, "kernels", summary.kernelTotals);
        readTotals(o, "ranges_total", summary.rangeTotals);
        od::array ranges;
        if (o["ranges"].get_array().get(ranges) != simdjson::SUCCESS)
            throw std::runtime_error("missing \"ranges\"");
        for (auto item : ranges) {
            od::object r = item.get_object();
            summary.ranges.push_back(readRange(r));
        }
        return true;
    } catch (const std::exception &e) { // simdjson_error is one too
        error = e.what();
        return false;
    }
}

namespace {

std::optional<TraceSummary> computeSummary(const Report &report, const EventStore &, const CancelToken *, std::string &)
{
    return summarizeForDigest(report);
}

} // namespace

const SummaryKind<TraceSummary> kTraceSummary{kTraceSummaryTag, "statistics summary", &computeSummary,
                                              &encodeTraceSummary, &decodeTraceSummary};

} // namespace ps::core::trace
