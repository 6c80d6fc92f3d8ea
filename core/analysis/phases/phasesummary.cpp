#include "core/analysis/phases/phasesummary.h"

#include "core/common/jsonwriter.h"
#include "core/trace/persist/digest.h"

#include <simdjson.h>

namespace ps::core::analysis {

// The DOM parser, not on-demand: it checks the whole summary before anything reads it. On demand,
// a lookup that failed on a malformed value left the iterator abandoned, and the next lookup read
// through a null parser (fuzz_digest found it: a crafted digest's phase summary).
namespace dom = simdjson::dom;

namespace {

void writeGpu(JsonWriter &w, const GpuBreakdown &b)
{
    w.key("gpu").beginObject();
    w.key("events").value(uint64_t(b.events)).key("first_ns").value(b.firstStart).key("last_ns").value(b.lastEnd);
    w.key("span_ns").value(b.spanNs).key("busy_ns").value(b.busyNs).key("idle_ns").value(b.idleNs);
    w.key("overlap_ns").value(b.commCompOverlapNs);
    for (const auto &[key, values] : {std::pair{"union_ns", &b.unionNs}, std::pair{"exclusive_ns", &b.exclusiveNs}}) {
        w.key(key).beginArray();
        for (int64_t v : *values)
            w.value(v);
        w.endArray();
    }
    w.endObject();
}

int64_t intOf(const dom::object &o, std::string_view key)
{
    int64_t v = 0;
    if (o[key].get_int64().get(v) != simdjson::SUCCESS)
        throw std::runtime_error("missing or non-integer \"" + std::string(key) + "\"");
    return v;
}

void readArray6(const dom::object &o, std::string_view key, std::array<int64_t, kGpuWorkCount> &out)
{
    dom::array a;
    if (o[key].get_array().get(a) != simdjson::SUCCESS)
        throw std::runtime_error("missing \"" + std::string(key) + "\"");
    size_t i = 0;
    for (dom::element v : a) {
        int64_t n = 0;
        if (i >= out.size() || v.get_int64().get(n) != simdjson::SUCCESS)
            throw std::runtime_error("bad \"" + std::string(key) + "\"");
        out[i++] = n;
    }
}

GpuBreakdown readGpu(const dom::object &cell)
{
    dom::object g;
    if (cell["gpu"].get_object().get(g) != simdjson::SUCCESS)
        throw std::runtime_error("missing \"gpu\"");
    GpuBreakdown b;
    b.events = size_t(intOf(g, "events"));
    b.firstStart = intOf(g, "first_ns");
    b.lastEnd = intOf(g, "last_ns");
    b.spanNs = intOf(g, "span_ns");
    b.busyNs = intOf(g, "busy_ns");
    b.idleNs = intOf(g, "idle_ns");
    b.commCompOverlapNs = intOf(g, "overlap_ns");
    readArray6(g, "union_ns", b.unionNs);
    readArray6(g, "exclusive_ns", b.exclusiveNs);
    return b;
}

void readCell(const dom::object &c, ReportPhaseCells &out)
{
    std::string_view phase;
    if (c["phase"].get_string().get(phase) != simdjson::SUCCESS)
        throw std::runtime_error("missing \"phase\"");
    const auto key = std::make_pair(intOf(c, "step"), std::string(phase));
    out.position[key] = size_t(intOf(c, "position"));
    PhaseCell &cell = out.cells[key];
    cell.present = true;
    cell.occurrences = int(intOf(c, "occurrences"));
    cell.wallNs = intOf(c, "wall_ns");
    cell.startNs = intOf(c, "start_ns");
    cell.first = {uint32_t(intOf(c, "track")), uint32_t(intOf(c, "index"))};
    cell.gpu = readGpu(c);
}

} // namespace

std::string encodePhaseSummary(const ReportPhaseCells &cells, std::optional<int> rank)
{
    JsonWriter w(0);
    w.beginObject().key("version").value(int64_t(1));
    w.key("rank").value(rank ? std::optional<int64_t>(*rank) : std::nullopt);
    w.key("counted").value(cells.counted);
    if (!cells.stepsFrom.empty()) // only then: summaries of reports without a config stay as they were
        w.key("steps_from").value(cells.stepsFrom);
    w.key("cells").beginArray();
    for (const auto &[key, cell] : cells.cells) {
        const auto pos = cells.position.find(key);
        w.beginObject().key("step").value(key.first).key("phase").value(key.second);
        w.key("position").value(uint64_t(pos == cells.position.end() ? 0 : pos->second));
        w.key("occurrences").value(int64_t(cell.occurrences)).key("wall_ns").value(cell.wallNs);
        w.key("start_ns").value(cell.startNs).key("track").value(uint64_t(cell.first.track));
        w.key("index").value(uint64_t(cell.first.index));
        writeGpu(w, cell.gpu);
        w.endObject();
    }
    w.endArray().endObject();
    return w.str();
}

bool decodePhaseSummary(std::string_view json, ReportPhaseCells &cells, std::optional<int> &rank, std::string &error)
{
    cells = {};
    rank.reset();
    try {
        dom::parser parser;
        dom::object root;
        if (parser.parse(json.data(), json.size()).get_object().get(root) != simdjson::SUCCESS)
            throw std::runtime_error("not a JSON object");
        if (intOf(root, "version") != 1)
            throw std::runtime_error("a phase summary of another version");
        int64_t r = 0;
        if (root["rank"].get_int64().get(r) == simdjson::SUCCESS)
            rank = int(r);
        bool counted = false;
        if (root["counted"].get_bool().get(counted) != simdjson::SUCCESS)
            throw std::runtime_error("missing \"counted\"");
        cells.counted = counted;
        std::string_view stepsFrom;
        if (root["steps_from"].get_string().get(stepsFrom) == simdjson::SUCCESS)
            cells.stepsFrom = std::string(stepsFrom);
        dom::array list;
        if (root["cells"].get_array().get(list) != simdjson::SUCCESS)
            throw std::runtime_error("missing \"cells\"");
        for (dom::element c : list) {
            dom::object o;
            if (c.get_object().get(o) != simdjson::SUCCESS)
                throw std::runtime_error("a cell that is no object");
            readCell(o, cells);
        }
    } catch (const std::exception &e) {
        error = std::string("phase summary: ") + e.what();
        return false;
    }
    return true;
}

std::string encodeBreakdown(const GpuBreakdown &b)
{
    JsonWriter w(0);
    w.beginObject();
    writeGpu(w, b);
    w.endObject();
    return w.str();
}

bool decodeBreakdown(std::string_view json, GpuBreakdown &b, std::string &error)
{
    try {
        dom::parser parser;
        dom::object root;
        if (parser.parse(json.data(), json.size()).get_object().get(root) != simdjson::SUCCESS)
            throw std::runtime_error("not a JSON object");
        b = readGpu(root);
    } catch (const std::exception &e) {
        error = std::string("breakdown: ") + e.what();
        return false;
    }
    return true;
}

namespace {

std::optional<ReportPhaseCells> computeCells(const trace::Report &report, const trace::EventStore &,
                                             const core::CancelToken *cancel, std::string &)
{
    return phaseCellsOf(report, PhaseMapping::defaults(), cancel);
}

std::string encodeCells(const ReportPhaseCells &cells)
{
    return encodePhaseSummary(cells, cells.rank);
}

bool decodeCells(std::string_view json, ReportPhaseCells &cells, std::string &error)
{
    return decodePhaseSummary(json, cells, cells.rank, error);
}

} // namespace

const trace::SummaryKind<ReportPhaseCells> kPhaseCells{kPhaseSummaryTag, "phase summary", &computeCells, &encodeCells,
                                                       &decodeCells};

trace::DigestSection phaseSummarySection(const trace::Report &report)
{
    // Digesting reads each report once: a pass per phase window costs less than an index.
    const ReportPhaseCells cells = phaseCellsOf(report, PhaseMapping::defaults(), nullptr, true);
    return {std::string(kPhaseCells.tag), kPhaseCells.encode(cells)};
}

} // namespace ps::core::analysis
