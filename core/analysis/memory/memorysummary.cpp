#include "core/analysis/memory/memorysummary.h"

#include "core/common/jsonwriter.h"
#include "core/trace/memory/memoryjson.h"

#include <stdexcept>

namespace ps::core::analysis {

using namespace trace::memoryjson;

std::optional<MemorySummary> computeMemorySummary(const trace::Report &report, const trace::EventStore &,
                                                  const core::CancelToken *, std::string &)
{
    MemorySummary out;
    for (const trace::MemorySeries &s : report.meta.memory)
        out.lanes.push_back({s.device, s.source, s.peakBytes(), s.peakTimeNs()});
    out.snapshot = report.meta.memoryPeaks;
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
    w.endArray().key("snapshot");
    trace::writeMemoryPeaksJson(w, s.snapshot);
    w.endObject();
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
        MemorySummary out;
        for (dom::object l : arrayAt(root, "lanes"))
            out.lanes.push_back({uint32_t(intAt(l, "device")), textAt(l, "source"), intAt(l, "peak_bytes"),
                                 optionalIntAt(l, "peak_time_ns")});
        const std::string devices = simdjson::minify(arrayAt(root, "snapshot"));
        if (!trace::decodeMemoryPeaks(devices, out.snapshot, error))
            return false;
        s = std::move(out);
        return true;
    } catch (const std::exception &e) { // also simdjson's, for an element of the wrong type
        error = e.what();
        return false;
    }
}

const trace::SummaryKind<MemorySummary> kMemorySummary{kMemorySummaryTag, "memory summary", &computeMemorySummary,
                                                       &encodeMemorySummary, &decodeMemorySummary};

} // namespace ps::core::analysis
