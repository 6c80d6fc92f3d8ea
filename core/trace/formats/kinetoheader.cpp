#include "core/trace/formats/kinetoheader.h"

#include <simdjson.h>

namespace ps::core::trace::formats::kineto {

namespace od = simdjson::ondemand;

namespace {

// deviceProperties: [{"id": 0, "name": "NVIDIA A100", ...}, ...]; unreadable entries are skipped.
void readDevices(od::value value, std::vector<GpuInfo> &gpus)
{
    od::array arr;
    if (value.get_array().get(arr))
        return;
    for (auto dv : arr) {
        od::object d;
        if (dv.get_object().get(d))
            continue;
        GpuInfo g;
        int64_t id = 0;
        std::string_view name;
        for (auto dfr : d) {
            od::field df;
            if (std::move(dfr).get(df))
                break;
            std::string_view dk;
            if (df.unescaped_key().get(dk))
                continue;
            if (dk == "id" && df.value().get_int64().get(id) == simdjson::SUCCESS)
                g.id = uint32_t(id);
            else if (dk == "name" && df.value().get_string().get(name) == simdjson::SUCCESS)
                g.name = std::string(name);
        }
        gpus.push_back(std::move(g));
    }
}

} // namespace

std::string parseHeader(const std::string &text, Header &h)
{
    simdjson::padded_string padded(text);
    od::parser parser;
    od::document doc;
    if (auto e = parser.iterate(padded).get(doc))
        return simdjson::error_message(e);
    od::object top;
    if (doc.get_object().get(top))
        return {}; // a bare array has no header
    for (auto fr : top) {
        od::field f;
        if (auto e = std::move(fr).get(f))
            return simdjson::error_message(e);
        std::string_view k;
        if (f.unescaped_key().get(k))
            continue;
        if (k == "baseTimeNanoseconds") {
            int64_t v = 0;
            uint64_t u = 0;
            if (f.value().get_int64().get(v) == simdjson::SUCCESS)
                h.baseTimeNs = v;
            else if (f.value().get_uint64().get(u) == simdjson::SUCCESS && u <= uint64_t(INT64_MAX))
                h.baseTimeNs = int64_t(u);
        } else if (k == "schemaVersion") {
            std::string_view raw = f.value().raw_json_token();
            while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r'))
                raw.remove_suffix(1);
            h.schemaVersion = std::string(raw);
        } else if (k == "distributedInfo") {
            od::object di;
            if (f.value().get_object().get(di))
                continue;
            int64_t r = 0;
            if (di.find_field_unordered("rank").get_int64().get(r) == simdjson::SUCCESS)
                h.rank = int(r);
        } else if (k == "deviceProperties") {
            readDevices(f.value(), h.gpus);
        } else if (k == "hostname" || k == "host_name") {
            std::string_view s;
            if (f.value().get_string().get(s) == simdjson::SUCCESS)
                h.host = std::string(s);
        }
    }
    return {};
}

} // namespace ps::core::trace::formats::kineto
