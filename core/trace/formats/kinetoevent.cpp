#include "core/trace/formats/kinetoevent.h"

#include "core/trace/formats/kinetotime.h"
#include "core/trace/store/eventtimes.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>

namespace ps::core::trace::formats::kineto {

namespace od = simdjson::ondemand;

namespace {

std::string_view rawKey(od::field &f)
{
    const char *p = f.key().raw();
    const void *q = std::memchr(p, '"', 64);
    return q ? std::string_view(p, size_t(static_cast<const char *>(q) - p)) : std::string_view();
}

simdjson::error_code readId(od::value v, Id &out)
{
    od::json_type t;
    if (auto e = v.type().get(t))
        return e;
    if (t == od::json_type::string) {
        out.numeric = false;
        if (auto e = v.get_string().get(out.str))
            return e;
        // Numeric strings are ids too.
        int64_t n = 0;
        bool digits = !out.str.empty() && out.str.size() < 19;
        for (char c : out.str)
            digits = digits && c >= '0' && c <= '9';
        if (digits) {
            for (char c : out.str)
                n = n * 10 + (c - '0');
            out.numeric = true;
            out.num = n;
        }
        return simdjson::SUCCESS;
    }
    out.numeric = true;
    int64_t n = 0;
    if (v.get_int64().get(n) == simdjson::SUCCESS) {
        out.num = n;
        return simdjson::SUCCESS;
    }
    double d = 0;
    if (auto e = v.get_double().get(d))
        return e;
    out.num = int64_t(d);
    return simdjson::SUCCESS;
}

uint32_t launchDim(od::value v, uint32_t *xyz)
{
    od::array a;
    if (v.get_array().get(a))
        return 0;
    uint32_t n = 0;
    for (auto x : a) {
        int64_t d = 0;
        if (x.get_int64().get(d))
            return n;
        if (n < 3)
            xyz[n] = uint32_t(d);
        ++n;
    }
    return n;
}

// An integer argument; nullopt when the value is not one (the field is then ignored).
std::optional<int64_t> intValue(od::field &f)
{
    int64_t v = 0;
    if (f.value().get_int64().get(v) != simdjson::SUCCESS)
        return std::nullopt;
    return v;
}

std::string_view stringValue(od::field &f)
{
    std::string_view s;
    return f.value().get_string().get(s) == simdjson::SUCCESS ? s : std::string_view();
}

// A string's value, or an array's JSON text; "" otherwise.
std::string_view stringOrArrayText(od::value v)
{
    od::json_type t;
    std::string_view s;
    od::array a;
    if (v.type().get(t) != simdjson::SUCCESS)
        return {};
    if (t == od::json_type::string && v.get_string().get(s) == simdjson::SUCCESS)
        return s;
    if (t == od::json_type::array && v.get_array().get(a) == simdjson::SUCCESS &&
        a.raw_json().get(s) == simdjson::SUCCESS)
        return s;
    return {};
}

// A collective argument of a kernel (spec A3); false when `k` is none. Ranks may be written as a
// string ("[0, 1]", PyTorch) or an array (other producers): either way its text is kept.
bool readCollectiveArg(std::string_view k, od::field &f, CollectiveArgs &c)
{
    if (k.size() < 3 || (k[0] != 'C' && k[0] != 'P' && k[0] != 'G' && k[0] != 'I' && k[0] != 'O' && k[0] != 'd' &&
                         k[0] != 'S' && k[0] != 'D'))
        return false;
    if (k == "Collective name")
        c.op = stringValue(f);
    else if (k == "Process Group Name")
        c.groupName = stringValue(f);
    else if (k == "Process Group Description")
        c.groupDesc = stringValue(f);
    else if (k == "Process Group Ranks")
        c.groupRanks = stringOrArrayText(f.value());
    else if (k == "Group size")
        c.groupSize = intValue(f).value_or(-1);
    else if (k == "In msg nelems")
        c.inNelems = intValue(f).value_or(-1);
    else if (k == "Out msg nelems")
        c.outNelems = intValue(f).value_or(-1);
    else if (k == "dtype")
        c.dtype = stringValue(f);
    else if (k == "In split size")
        c.inSplit = stringValue(f);
    else if (k == "Out split size")
        c.outSplit = stringValue(f);
    else if (k == "Seq")
        c.seq = intValue(f).value_or(-1);
    else if (k == "Dst Rank" || k == "Src Rank")
        c.peer = intValue(f).value_or(-1);
    else
        return false;
    return true;
}

simdjson::error_code readArgs(od::value v, Event &ev)
{
    od::object args;
    if (auto e = v.get_object().get(args))
        return e;
    for (auto fr : args) {
        od::field f;
        if (auto e = std::move(fr).get(f))
            return e;
        const std::string_view k = rawKey(f);
        if (readCollectiveArg(k, f, ev.collective))
            continue;
        if (k == "correlation") {
            if (const auto c = intValue(f))
                ev.correlation = uint32_t(*c);
        } else if (k == "device") {
            if (const auto d = intValue(f))
                ev.device = d;
        } else if (k == "stream") {
            if (const auto st = intValue(f))
                ev.stream = st;
        } else if (k == "bytes") {
            if (const auto b = intValue(f))
                ev.bytes = uint64_t(std::max<int64_t>(0, *b));
        } else if (k == "grid") {
            uint32_t g[3] = {1, 1, 1};
            if (launchDim(f.value(), g) > 0) {
                ev.launch.gridX = g[0];
                ev.launch.gridY = g[1];
                ev.launch.gridZ = g[2];
                ev.hasLaunch = true;
            }
        } else if (k == "block") {
            uint32_t g[3] = {1, 1, 1};
            if (launchDim(f.value(), g) > 0) {
                ev.launch.blockX = g[0];
                ev.launch.blockY = g[1];
                ev.launch.blockZ = g[2];
                ev.hasLaunch = true;
            }
        } else if (k == "name") {
            std::string_view s;
            if (f.value().get_string().get(s) == simdjson::SUCCESS)
                ev.argName = s;
        } else if (k == "Total Allocated") {
            if (const auto b = intValue(f))
                ev.totalAllocated = b;
        } else if (k == "Device Id") {
            if (const auto d = intValue(f))
                ev.memoryDevice = d;
        } else if (k == "Device Type") {
            ev.memoryDeviceType = intValue(f).value_or(ev.memoryDeviceType);
        }
    }
    return simdjson::SUCCESS;
}

// Only GPU work, API calls, metadata and memory samples need args; they are skipped for the many
// CPU ops. (Kineto writes ph and name before args.)
simdjson::error_code readArgsWhenNeeded(od::field &f, Event &ev)
{
    const Cat c = ev.hasCat ? catOf(ev.cat) : Cat::Other;
    const bool memory = ev.ph == 'i' && ev.name == "[memory]";
    if (!ev.hasCat || ev.ph == 'M' || memory || isGpuCat(c) || c == Cat::Runtime || c == Cat::Driver)
        return readArgs(f.value(), ev);
    return simdjson::SUCCESS;
}

simdjson::error_code readEvent(od::object obj, Event &ev)
{
    for (auto fr : obj) {
        od::field f;
        if (auto e = std::move(fr).get(f))
            return e;
        const std::string_view k = rawKey(f);
        if (k.empty())
            continue;
        switch (k[0]) {
        case 'p':
            if (k == "ph") {
                std::string_view s;
                if (auto e = f.value().get_string().get(s))
                    return e;
                ev.ph = s.empty() ? 0 : s[0];
            } else if (k == "pid") {
                if (auto e = readId(f.value(), ev.pid))
                    return e;
            }
            break;
        case 'c':
            if (k == "cat") {
                if (f.value().get_string().get(ev.cat) == simdjson::SUCCESS)
                    ev.hasCat = true;
            }
            break;
        case 'n':
            if (k == "name") {
                std::string_view s;
                if (f.value().get_string().get(s) == simdjson::SUCCESS)
                    ev.name = s;
            }
            break;
        case 't':
            if (k == "tid") {
                if (auto e = readId(f.value(), ev.tid))
                    return e;
            } else if (k == "ts") {
                ev.ts = microsTextToNs(f.value().raw_json_token());
                ev.badTime = ev.badTime || !ev.ts || !isPlausibleTime(*ev.ts);
            }
            break;
        case 'd':
            if (k == "dur") {
                ev.dur = microsTextToNs(f.value().raw_json_token());
                ev.badTime = ev.badTime || !ev.dur || !isPlausibleTime(*ev.dur);
            }
            break;
        case 'i':
            if (k == "id") {
                Id id;
                if (readId(f.value(), id) == simdjson::SUCCESS)
                    ev.flowId = id.numeric ? uint64_t(id.num) : std::hash<std::string_view>{}(id.str);
            }
            break;
        case 'b':
            if (k == "bp") {
                std::string_view s;
                if (f.value().get_string().get(s) == simdjson::SUCCESS)
                    ev.bindEnclosing = s == "e";
            }
            break;
        case 'a':
            if (k == "args") {
                if (auto e = readArgsWhenNeeded(f, ev))
                    return e;
            }
            break;
        default:
            break;
        }
    }
    return simdjson::SUCCESS;
}

} // namespace

struct Decoder::Impl
{
    od::parser parser;
    std::string padded;
};

Decoder::Decoder() : d(std::make_unique<Impl>())
{
}
Decoder::~Decoder() = default;

std::string Decoder::decodeBatch(std::string_view batch, EventSink &sink)
{
    // "[" batch "]" plus the zeroed padding simdjson reads ahead into.
    std::string &padded = d->padded;
    padded.resize(batch.size() + 2 + simdjson::SIMDJSON_PADDING);
    padded[0] = '[';
    std::memcpy(padded.data() + 1, batch.data(), batch.size());
    padded[batch.size() + 1] = ']';
    std::memset(padded.data() + batch.size() + 2, 0, simdjson::SIMDJSON_PADDING);
    od::document doc;
    od::array arr;
    if (auto e = d->parser.iterate(padded.data(), batch.size() + 2, padded.size()).get(doc);
        e || (e = doc.get_array().get(arr)))
        return simdjson::error_message(e);
    for (auto item : arr) {
        od::object obj;
        if (auto e = item.get_object().get(obj))
            return simdjson::error_message(e);
        Event ev;
        if (auto e = readEvent(obj, ev))
            return simdjson::error_message(e);
        sink.event(ev);
    }
    return {};
}

} // namespace ps::core::trace::formats::kineto
