// export_memory_timeline's outputs (raw rows and [times, sizes]), file kinds and identity.

#include "core/trace/formats/torchmemoryfiles.h"
#include "core/common/memorybudget.h"
#include "core/trace/formats/bytesource.h"
#include "core/trace/formats/formatutil.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <regex>

namespace ps::core::trace {

namespace {

// A decompressed timeline larger than this is refused (a gzip bomb, not a profile).
constexpr uint64_t kMaxTimelineBytes = uint64_t(4) << 30;
// And larger than this many times its compressed size: export_memory_timeline's JSON compresses
// about 5-15x with gzip, a bomb 1000x. Below kMinInflateBound any ratio passes (small files).
constexpr uint64_t kMaxInflateRatio = 128;
constexpr uint64_t kMinInflateBound = uint64_t(256) << 20;

// What the file may grow to once decompressed, stated before anything is allocated for it.
uint64_t inflateBound(const formats::ByteSource &src)
{
    if (!src.compressed())
        return std::min(kMaxTimelineBytes, src.fileSize());
    return std::min(kMaxTimelineBytes, std::max(kMinInflateBound, src.fileSize() * kMaxInflateRatio));
}

std::string mib(uint64_t bytes)
{
    return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

std::string fileName(std::string_view path)
{
    const size_t slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// The decompressed file into `text`, followed by SIMDJSON_PADDING zero bytes that `size` leaves
// out, so that simdjson parses it in place (no second copy of a timeline of up to 4 GiB).
std::string readPadded(const std::string &path, std::string &text, size_t &size)
{
    formats::ByteSource src;
    if (std::string e = src.open(path); !e.empty())
        return e;
    const uint64_t bound = inflateBound(src);
    // What this file may inflate to, held while it does, so that timelines read on many threads
    // stay within one budget (core/common/memorybudget.h).
    const MemoryBudget::Lease lease = MemoryBudget::inflation().lease(bound);
    bool overBound = false;
    std::string error = formats::readAllBounded(src, bound, simdjson::SIMDJSON_PADDING, text, size, overBound);
    if (overBound)
        return path + ": more than " + mib(bound) + " of JSON once decompressed (" + mib(src.fileSize()) +
               " on disk; a memory timeline compresses far less than " + std::to_string(kMaxInflateRatio) +
               "x): a gzip bomb, not a profile; not read";
    return error;
}

std::optional<int64_t> jsonInt(simdjson::dom::element e)
{
    int64_t i = 0;
    if (e.get_int64().get(i) == simdjson::SUCCESS)
        return i;
    double d = 0;
    if (e.get_double().get(d) == simdjson::SUCCESS && std::isfinite(d) && std::fabs(d) < 9e18)
        return int64_t(std::llround(d));
    return std::nullopt;
}

// Rows (time ns or -1 = before the profile, action, signed bytes, category index) into running
// totals per category: PREEXISTING rows count from the earliest time, as PyTorch plots them.
std::string readRaw(simdjson::dom::array rows, MemoryTimeline &out)
{
    struct Row
    {
        int64_t t, bytes;
        int category;
    };
    std::vector<Row> parsed;
    int64_t tMin = INT64_MAX;
    size_t i = 0;
    for (simdjson::dom::element r : rows) {
        simdjson::dom::array a;
        if (r.get_array().get(a) != simdjson::SUCCESS || a.size() != 4)
            return out.path + ": row " + std::to_string(i) + ": not [time, action, bytes, category]";
        const auto t = jsonInt(a.at(0).value_unsafe()), b = jsonInt(a.at(2).value_unsafe()),
                   c = jsonInt(a.at(3).value_unsafe());
        if (!t || !b || !c || *c < 0 || *c >= int64_t(kMemoryCategories.size()))
            return out.path + ": row " + std::to_string(i) + ": expected integers and a category index 0-7";
        parsed.push_back({*t, *b, int(*c)});
        if (*t >= 0)
            tMin = std::min(tMin, *t);
        ++i;
    }
    for (Row &r : parsed)
        if (r.t < 0)
            r.t = tMin == INT64_MAX ? 0 : tMin;
    std::stable_sort(parsed.begin(), parsed.end(), [](const Row &a, const Row &b) { return a.t < b.t; });
    std::array<int64_t, 8> running{};
    for (const Row &r : parsed) {
        running[size_t(r.category)] = addWrapping(running[size_t(r.category)], r.bytes);
        if (!out.timeNs.empty() && out.timeNs.back() == r.t) {
            out.bytes.back() = running;
        } else {
            out.timeNs.push_back(r.t);
            out.bytes.push_back(running);
        }
    }
    return {};
}

// [times µs, sizes]: sizes rows are running totals, column 0 unused and category k in k+1.
std::string readPlain(simdjson::dom::array top, MemoryTimeline &out)
{
    simdjson::dom::array times, sizes;
    if (top.size() != 2 || top.at(0).get_array().get(times) != simdjson::SUCCESS ||
        top.at(1).get_array().get(sizes) != simdjson::SUCCESS || times.size() != sizes.size())
        return out.path + ": expected [times, sizes] of equal length (export_memory_timeline)";
    size_t i = 0;
    for (simdjson::dom::element t : times) {
        double us = 0;
        if (t.get_double().get(us) != simdjson::SUCCESS || !std::isfinite(us) || std::fabs(us) > 9e15)
            return out.path + ": times[" + std::to_string(i) + "] is not a number of µs";
        out.timeNs.push_back(int64_t(std::llround(us * 1000)));
        ++i;
    }
    i = 0;
    for (simdjson::dom::element row : sizes) {
        simdjson::dom::array a;
        if (row.get_array().get(a) != simdjson::SUCCESS || (a.size() != 9 && a.size() != 8))
            return out.path + ": sizes[" + std::to_string(i) + "] is not a row of 9 (or 8) category totals";
        const size_t skip = a.size() - 8;
        std::array<int64_t, 8> v{};
        for (size_t c = 0; c < 8; ++c) {
            const auto n = jsonInt(a.at(c + skip).value_unsafe());
            if (!n)
                return out.path + ": sizes[" + std::to_string(i) + "][" + std::to_string(c + skip) +
                       "] is not a number";
            v[c] = *n;
        }
        out.bytes.push_back(v);
        ++i;
    }
    return {};
}

} // namespace

std::string_view memActionName(MemAction a)
{
    static constexpr std::string_view k[] = {"alloc",        "free_requested", "free_completed", "segment_alloc",
                                             "segment_free", "segment_map",    "segment_unmap",  "snapshot",
                                             "oom",          "annotate",       "other"};
    return k[size_t(a)];
}

MemoryFileIdentity memoryFileIdentity(std::string_view path)
{
    MemoryFileIdentity id;
    const std::string name = fileName(path);
    static const std::regex verl(R"(torch_memory_rank(\d+)_pid(\d+))");
    static const std::regex tutorial(R"(^rank(\d+)_.*memory_profile)");
    static const std::regex stepDir(R"(^step(\d+)$)");
    std::smatch m;
    if (std::regex_search(name, m, verl)) {
        id.rank = std::stoi(m[1].str().substr(0, 9));
        id.pid = uint32_t(std::stoul(m[2].str().substr(0, 9)));
        const std::string dir(path.substr(0, path.size() - std::min(path.size(), name.size() + 1)));
        const std::string parent = fileName(dir);
        if (std::regex_match(parent, m, stepDir))
            id.step = std::stoi(m[1].str().substr(0, 9));
    } else if (std::regex_search(name, m, tutorial)) {
        id.rank = std::stoi(m[1].str().substr(0, 9));
    }
    return id;
}

MemoryFileKind memoryFileKind(std::string_view path)
{
    const std::string name = formats::lowerFileName(path);
    using formats::endsWith;
    if (endsWith(name, ".pickle") || endsWith(name, ".pkl") || endsWith(name, ".pickle.gz") ||
        endsWith(name, ".pkl.gz"))
        return MemoryFileKind::Snapshot;
    if (name.find("memory") == std::string::npos)
        return MemoryFileKind::NotMemory;
    if (endsWith(name, ".html"))
        return MemoryFileKind::TimelineHtml;
    if (endsWith(name, ".json") || endsWith(name, ".json.gz") || endsWith(name, ".raw.gz"))
        return MemoryFileKind::Timeline;
    return MemoryFileKind::NotMemory;
}

std::string readMemoryTimeline(const std::string &path, MemoryTimeline &out)
{
    out = MemoryTimeline();
    out.path = path;
    out.identity = memoryFileIdentity(path);
    if (formats::endsWith(path, ".html"))
        return path + ": an export_memory_timeline .html holds only a picture (a PNG); export "
                      "`.raw.json.gz` (the raw events) or `.json.gz` (times and sizes by category) instead";
    std::string text;
    size_t size = 0;
    if (std::string e = readPadded(path, text, size); !e.empty())
        return e;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (auto e = parser.parse(simdjson::padded_string_view(text.data(), size, text.size())).get(root);
        e != simdjson::SUCCESS)
        return path + ": not JSON: " + simdjson::error_message(e);
    simdjson::dom::array top;
    if (root.get_array().get(top) != simdjson::SUCCESS)
        return path + ": not a memory timeline (expected a JSON array)";
    // The plain export is [times, sizes] whose sizes are rows (arrays); raw rows hold numbers.
    simdjson::dom::array second;
    const bool plain = top.size() == 2 && top.at(1).get_array().get(second) == simdjson::SUCCESS &&
                       (second.size() == 0 || second.at(0).is_array());
    out.raw = !plain;
    std::string error = plain ? readPlain(top, out) : readRaw(top, out);
    return error;
}

std::string timelineCategorySource(size_t category)
{
    return "timeline " + std::string(kMemoryCategories[category]);
}

std::optional<size_t> timelineCategoryOfSource(std::string_view source)
{
    for (size_t c = 0; c < kMemoryCategories.size(); ++c)
        if (source == timelineCategorySource(c))
            return c;
    return std::nullopt;
}

} // namespace ps::core::trace
