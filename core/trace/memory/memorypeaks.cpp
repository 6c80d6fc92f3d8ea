#include "core/trace/memory/memorypeaks.h"

#include "core/common/jsonwriter.h"
#include "core/trace/memory/memoryjson.h"

#include <stdexcept>

namespace ps::core::trace {

namespace {

using namespace memoryjson;

MemoryDevicePeak decodeDevice(dom::object o)
{
    MemoryDevicePeak d;
    d.device = intAt(o, "device");
    d.peakBytes = intAt(o, "peak_bytes");
    d.peakTimeNs = optionalIntAt(o, "peak_time_ns");
    d.peakReservedBytes = intAt(o, "peak_reserved_bytes");
    for (dom::object g : arrayAt(o, "live_at_peak")) {
        MemoryPeakSite site{intAt(g, "bytes"), intAt(g, "blocks"), {}, int(intAt(g, "folded_frames"))};
        for (dom::object f : arrayAt(g, "frames"))
            site.frames.push_back({textAt(f, "name"), textAt(f, "file"), intAt(f, "line")});
        d.liveAtPeak.push_back(std::move(site));
    }
    for (dom::object m : arrayAt(o, "ooms"))
        d.ooms.push_back({optionalIntAt(m, "time_ns"), intAt(m, "bytes"), intAt(m, "device_free")});
    return d;
}

void encodeDevice(JsonWriter &w, const MemoryDevicePeak &d)
{
    w.beginObject().key("device").value(d.device).key("peak_bytes").value(d.peakBytes);
    w.key("peak_time_ns").value(d.peakTimeNs).key("peak_reserved_bytes").value(d.peakReservedBytes);
    w.key("live_at_peak").beginArray();
    for (const MemoryPeakSite &g : d.liveAtPeak) {
        w.beginObject().key("bytes").value(g.bytes).key("blocks").value(g.blocks);
        w.key("folded_frames").value(g.foldedFrames).key("frames").beginArray();
        for (const MemFrame &f : g.frames)
            w.beginObject().key("name").value(f.name).key("file").value(f.file).key("line").value(f.line).endObject();
        w.endArray().endObject();
    }
    w.endArray().key("ooms").beginArray();
    for (const MemoryOom &o : d.ooms)
        writeOomJson(w, o);
    w.endArray().endObject();
}

} // namespace

void writeOomJson(JsonWriter &w, const MemoryOom &oom)
{
    w.beginObject().key("time_ns").value(oom.timeNs).key("bytes").value(oom.bytes);
    w.key("device_free").value(oom.deviceFree).endObject();
}

void writeMemoryPeaksJson(JsonWriter &w, const std::vector<MemoryDevicePeak> &peaks)
{
    w.beginArray();
    for (const MemoryDevicePeak &d : peaks)
        encodeDevice(w, d);
    w.endArray();
}

std::string encodeMemoryPeaks(const std::vector<MemoryDevicePeak> &peaks)
{
    JsonWriter w(0);
    writeMemoryPeaksJson(w, peaks);
    return w.str();
}

bool decodeMemoryPeaks(std::string_view json, std::vector<MemoryDevicePeak> &peaks, std::string &error)
{
    try {
        dom::parser parser;
        dom::array devices;
        const simdjson::padded_string padded(json);
        if (parser.parse(padded).get_array().get(devices) != simdjson::SUCCESS)
            throw std::runtime_error("not a JSON array");
        std::vector<MemoryDevicePeak> out;
        for (dom::object d : devices)
            out.push_back(decodeDevice(d));
        peaks = std::move(out);
        return true;
    } catch (const std::exception &e) { // also simdjson's, for an element of the wrong type
        error = e.what();
        return false;
    }
}

} // namespace ps::core::trace
