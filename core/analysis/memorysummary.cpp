#include "core/analysis/memorysummary.h"

#include "core/common/jsonwriter.h"
#include "core/trace/formats/torchmemory.h"
#include "core/trace/formats/torchmemoryreader.h"

#include <simdjson.h>

#include <stdexcept>

namespace ps::core::analysis {

namespace {

namespace dom = simdjson::dom;

MemorySummary::Site siteOf(const trace::MemorySnapshot &s, const LiveGroup &g)
{
    MemorySummary::Site site{g.bytes, g.blocks, {}, g.foldedFrames};
    for (size_t f = 0; f < g.frames.size() && f < kMemorySummaryFrames; ++f)
        site.frames.push_back(s.frames[g.frames[f]]);
    return site;
}

MemorySummary::Device deviceOf(const trace::MemorySnapshot &s, const DeviceMemory &d)
{
    MemorySummary::Device out{d.device, d.peakBytes, d.peakTimeNs, d.peakReservedBytes, {}, d.ooms};
    for (size_t i = 0; i < d.liveAtPeak.size() && i < kMemorySummarySites; ++i)
        out.liveAtPeak.push_back(siteOf(s, d.liveAtPeak[i]));
    return out;
}

int64_t intAt(dom::object o, const char *key)
{
    int64_t v = 0;
    if (o[key].get_int64().get(v) != simdjson::SUCCESS)
        throw std::runtime_error(std::string("missing or non-integer \"") + key + "\"");
    return v;
}

std::optional<int64_t> optionalIntAt(dom::object o, const char *key)
{
    dom::element e;
    if (o[key].get(e) != simdjson::SUCCESS)
        throw std::runtime_error(std::string("missing \"") + key + "\"");
    if (e.is_null())
        return std::nullopt;
    return intAt(o, key);
}

std::string textAt(dom::object o, const char *key)
{
    std::string_view v;
    if (o[key].get_string().get(v) != simdjson::SUCCESS)
        throw std::runtime_error(std::string("missing \"") + key + "\"");
    return std::string(v);
}

dom::array arrayAt(dom::object o, const char *key)
{
    dom::array a;
    if (o[key].get_array().get(a) != simdjson::SUCCESS)
        throw std::runtime_error(std::string("missing \"") + key + "\"");
    return a;
}

MemorySummary::Device decodeDevice(dom::object o)
{
    MemorySummary::Device d;
    d.device = intAt(o, "device");
    d.peakBytes = intAt(o, "peak_bytes");
    d.peakTimeNs = optionalIntAt(o, "peak_time_ns");
    d.peakReservedBytes = intAt(o, "peak_reserved_bytes");
    for (dom::object g : arrayAt(o, "live_at_peak")) {
        MemorySummary::Site site{intAt(g, "bytes"), intAt(g, "blocks"), {}, int(intAt(g, "folded_frames"))};
        for (dom::object f : arrayAt(g, "frames"))
            site.frames.push_back({textAt(f, "name"), textAt(f, "file"), intAt(f, "line")});
        d.liveAtPeak.push_back(std::move(site));
    }
    for (dom::object m : arrayAt(o, "ooms"))
        d.ooms.push_back({optionalIntAt(m, "time_ns"), intAt(m, "bytes"), intAt(m, "device_free")});
    return d;
}

void encodeDevice(JsonWriter &w, const MemorySummary::Device &d)
{
    w.beginObject().key("device").value(d.device).key("peak_bytes").value(d.peakBytes);
    w.key("peak_time_ns").value(d.peakTimeNs).key("peak_reserved_bytes").value(d.peakReservedBytes);
    w.key("live_at_peak").beginArray();
    for (const MemorySummary::Site &g : d.liveAtPeak) {
        w.beginObject().key("bytes").value(g.bytes).key("blocks").value(g.blocks);
        w.key("folded_frames").value(g.foldedFrames).key("frames").beginArray();
        for (const trace::MemFrame &f : g.frames)
            w.beginObject().key("name").value(f.name).key("file").value(f.file).key("line").value(f.line).endObject();
        w.endArray().endObject();
    }
    w.endArray().key("ooms").beginArray();
    for (const MemoryOom &o : d.ooms)
        writeOomJson(w, o);
    w.endArray().endObject();
}

} // namespace

std::optional<MemorySummary> computeMemorySummary(const trace::Report &report, const trace::EventStore &,
                                                  const trace::CancelToken *, std::string &error)
{
    MemorySummary out;
    for (const trace::MemorySeries &s : report.meta.memory)
        out.lanes.push_back({s.device, s.source, s.peakBytes(), s.peakTimeNs()});
    if (report.meta.format != trace::kTorchMemoryFormat ||
        trace::memoryFileKind(report.path) != trace::MemoryFileKind::Snapshot)
        return out;
    trace::MemorySnapshot snapshot;
    if (std::string e = trace::readMemorySnapshot(report.path, snapshot); !e.empty()) {
        error = e;
        return std::nullopt;
    }
    for (const DeviceMemory &d : analyzeSnapshot(snapshot).devices)
        out.snapshot.push_back(deviceOf(snapshot, d));
    return out;
}

std::string encodeMemorySummary(const MemorySummary &s)
{
    JsonWriter w(0);
    w.beginObject().key("version").value(1).key("lanes").beginArray();
    for (const MemorySummary::Lane &l : s.lanes)
        w.beginObject()
            .key("device")
            .value(uint64_t(l.device))
            .key("source")
            .value(l.source)
            .key("peak_bytes")
            .value(l.peakBytes)
            .key("peak_time_ns")
            .value(l.peakTimeNs)
            .endObject();
    w.endArray().key("snapshot").beginArray();
    for (const MemorySummary::Device &d : s.snapshot)
        encodeDevice(w, d);
    w.endArray().endObject();
    return w.str();
}

bool decodeMemorySummary(std::string_view bytes, MemorySummary &s, std::string &error)
{
    try {
        dom::parser parser;
        dom::object root;
        if (parser.parse(bytes.data(), bytes.size()).get_object().get(root) != simdjson::SUCCESS)
            throw std::runtime_error("not a JSON object");
        if (intAt(root, "version") != 1)
            throw std::runtime_error("unknown version");
        s = MemorySummary();
        for (dom::object l : arrayAt(root, "lanes"))
            s.lanes.push_back({uint32_t(intAt(l, "device")), textAt(l, "source"), intAt(l, "peak_bytes"),
                               optionalIntAt(l, "peak_time_ns")});
        for (dom::object d : arrayAt(root, "snapshot"))
            s.snapshot.push_back(decodeDevice(d));
        return true;
    } catch (const std::exception &e) { // also simdjson's, for an element of the wrong type
        error = e.what();
        return false;
    }
}

const trace::SummaryKind<MemorySummary> kMemorySummary{"MEMS", "memory summary", &computeMemorySummary,
                                                       &encodeMemorySummary, &decodeMemorySummary};

} // namespace ps::core::analysis
