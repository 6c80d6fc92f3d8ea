#include "core/trace/formats/kinetoheader.h"

#include "core/trace/store/launchidentity.h"

#include <simdjson.h>

#include <algorithm>

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

// distributedInfo.pg_config: [{pg_name, pg_desc, backend_config, pg_size, ranks}]; entries that
// are not objects are skipped.
void readProcessGroups(od::value value, std::vector<ProcessGroupConfig> &groups)
{
    od::array arr;
    if (value.get_array().get(arr))
        return;
    for (auto gv : arr) {
        od::object g;
        if (gv.get_object().get(g))
            continue;
        ProcessGroupConfig pg;
        for (auto fr : g) {
            od::field f;
            std::string_view k, text;
            if (std::move(fr).get(f) || f.unescaped_key().get(k))
                break;
            int64_t n = 0;
            od::array ranks;
            if (k == "pg_name" && f.value().get_string().get(text) == simdjson::SUCCESS)
                pg.name = std::string(text);
            else if (k == "pg_desc" && f.value().get_string().get(text) == simdjson::SUCCESS)
                pg.desc = std::string(text);
            else if (k == "backend_config" && f.value().get_string().get(text) == simdjson::SUCCESS)
                pg.backend = std::string(text);
            else if (k == "pg_size" && f.value().get_int64().get(n) == simdjson::SUCCESS)
                pg.size = int(std::clamp<int64_t>(n, -1, 1 << 30));
            else if (k == "ranks" && f.value().get_array().get(ranks) == simdjson::SUCCESS &&
                     ranks.raw_json().get(text) == simdjson::SUCCESS)
                pg.ranks = std::string(text);
        }
        groups.push_back(std::move(pg));
    }
}

// A rank or world size: a whole number in [0, 2^31), else nullopt and a problem naming the key
// (a rank of 2^32 + 1 once wrapped to 1 and passed for another rank's).
std::optional<int> rankField(od::value value, const char *key, std::vector<std::string> &problems)
{
    std::string_view raw = value.raw_json_token();
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t'))
        raw.remove_suffix(1);
    if (const std::optional<int> n = parseRankNumber(raw))
        return n;
    problems.push_back(std::string(key) + " is " + std::string(raw.substr(0, 40)) +
                       ", expected a whole number in [0, 2^31); not used");
    return std::nullopt;
}

// distributedInfo: {backend, rank, world_size, pg_count, pg_config, nccl_version}.
void readDistributedInfo(od::value value, Header &h)
{
    od::object di;
    if (value.get_object().get(di))
        return;
    for (auto fr : di) {
        od::field f;
        std::string_view k;
        if (std::move(fr).get(f) || f.unescaped_key().get(k))
            break;
        if (k == "rank")
            h.rank = rankField(f.value(), "distributedInfo.rank", h.problems);
        else if (k == "world_size")
            h.worldSize = rankField(f.value(), "distributedInfo.world_size", h.problems);
        else if (k == "pg_config")
            readProcessGroups(f.value(), h.processGroups);
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
            readDistributedInfo(f.value(), h);
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
