#include "core/trace/formats/rlinftracereader.h"

#include "core/trace/formats/formatutil.h"
#include "core/trace/formats/kinetotime.h"
#include "core/trace/persist/mappedfile.h"
#include "core/trace/read/identity.h"
#include "core/trace/store/eventtimes.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>

namespace ps::core::trace {

namespace od = simdjson::ondemand;

namespace {

// One event of the file, before B/E pairing.
struct RawEvent
{
    uint32_t worker = 0;
    uint32_t tid = 0; // index into the worker's tid names
    char ph = 0;
    int64_t ts = 0;
    int64_t dur = 0;
    uint32_t name = 0; // into ParsedFile::strings
    uint32_t cat = 0;
    size_t line = 0;
    bool badTime = false; // ts or dur beyond any clock (eventtimes.h): dropped and counted
};

struct ParsedFile
{
    std::vector<std::string> workers;
    std::vector<std::vector<std::string>> tids; // per worker
    std::vector<std::string> strings{""};
    std::unordered_map<std::string, uint32_t> stringIds{{"", 0}};
    std::vector<RawEvent> events;
    std::vector<std::string> warnings;
    size_t skippedPhases = 0;

    uint32_t intern(std::string_view s)
    {
        auto [it, added] = stringIds.try_emplace(std::string(s), uint32_t(strings.size()));
        if (added)
            strings.emplace_back(s);
        return it->second;
    }
    uint32_t workerIndex(const std::string &w)
    {
        for (size_t i = 0; i < workers.size(); ++i)
            if (workers[i] == w)
                return uint32_t(i);
        workers.push_back(w);
        tids.emplace_back();
        return uint32_t(workers.size() - 1);
    }
    uint32_t tidIndex(uint32_t worker, const std::string &t)
    {
        auto &names = tids[worker];
        for (size_t i = 0; i < names.size(); ++i)
            if (names[i] == t)
                return uint32_t(i);
        names.push_back(t);
        return uint32_t(names.size() - 1);
    }
};

// A pid/tid as text: the Tracer writes strings, other writers integers.
simdjson::error_code idText(od::value v, std::string &out)
{
    std::string_view s;
    if (v.get_string().get(s) == simdjson::SUCCESS) {
        out.assign(s);
        return simdjson::SUCCESS;
    }
    int64_t n = 0;
    if (auto e = v.get_int64().get(n))
        return e;
    out = std::to_string(n);
    return simdjson::SUCCESS;
}

// What a line holds, field by field; `missing` names the first required field not found.
struct LineFields
{
    std::string_view name, cat, ph;
    std::optional<int64_t> ts;
    int64_t dur = 0;
    std::string pid, tid;
    bool havePid = false;
};

// Returns "" or what is wrong with the line.
std::string readFields(od::object obj, LineFields &f)
{
    for (auto fieldResult : obj) {
        od::field field;
        if (auto e = std::move(fieldResult).get(field))
            return std::string("not JSON: ") + simdjson::error_message(e);
        std::string_view key;
        if (auto e = field.unescaped_key().get(key))
            return std::string("not JSON: ") + simdjson::error_message(e);
        od::value v = field.value();
        if (key == "name" || key == "cat" || key == "ph") {
            std::string_view &dst = key == "name" ? f.name : key == "cat" ? f.cat : f.ph;
            if (v.get_string().get(dst))
                return "\"" + std::string(key) + "\" must be a string";
        } else if (key == "ts" || key == "dur") {
            std::string_view raw = v.raw_json_token();
            const std::optional<int64_t> ns = formats::microsTextToNs(raw);
            if (!ns)
                return "\"" + std::string(key) + "\" must be a number of microseconds, got " + std::string(raw);
            if (key == "ts")
                f.ts = ns;
            else
                f.dur = *ns;
        } else if (key == "pid" || key == "tid") {
            if (idText(v, key == "pid" ? f.pid : f.tid))
                return "\"" + std::string(key) + "\" must be a string or an integer";
            f.havePid = f.havePid || key == "pid";
        }
    }
    if (f.ph.empty())
        return "no \"ph\" (event phase)";
    if (!f.ts)
        return "no \"ts\" (microseconds since the epoch)";
    if (!f.havePid)
        return "no \"pid\" (worker name)";
    return {};
}

// Parses one line into `out`; returns "" or the reason (without the location).
std::string parseLine(od::parser &parser, const char *data, size_t len, size_t capacity, ParsedFile &out, size_t lineNo)
{
    od::document doc;
    if (auto e = parser.iterate(data, len, capacity).get(doc))
        return std::string("not JSON: ") + simdjson::error_message(e);
    od::object obj;
    if (auto e = doc.get_object().get(obj))
        return std::string(e == simdjson::INCORRECT_TYPE ? "expected one JSON object per line (a Chrome trace event): "
                                                         : "not JSON: ") +
               simdjson::error_message(e);
    LineFields f;
    try {
        if (std::string why = readFields(obj, f); !why.empty())
            return why;
    } catch (const simdjson::simdjson_error &e) {
        return std::string("not JSON: ") + e.what();
    }
    // Past the object's closing brace, a location still in bounds is another token.
    const char *after = nullptr;
    if (doc.current_location().get(after) == simdjson::SUCCESS)
        return "text after the JSON object";
    const char ph = f.ph.size() == 1 ? f.ph[0] : 0;
    if (ph != 'B' && ph != 'E' && ph != 'X' && ph != 'i' && ph != 'I' && ph != 'M') {
        ++out.skippedPhases;
        return {};
    }
    RawEvent ev;
    ev.worker = out.workerIndex(f.pid);
    ev.tid = out.tidIndex(ev.worker, f.tid);
    ev.ph = ph;
    ev.ts = *f.ts;
    ev.dur = f.dur;
    ev.badTime = !isPlausibleTime(ev.ts) || !isPlausibleTime(ev.dur);
    ev.name = out.intern(f.name);
    ev.cat = out.intern(f.cat);
    ev.line = lineNo;
    if (ph != 'M')
        out.events.push_back(ev);
    return {};
}

std::string parseFile(const std::string &path, const ReadContext &ctx, ParsedFile &out)
{
    simdjson::padded_string buf;
    if (auto e = simdjson::padded_string::load(path).get(buf))
        return path + ": cannot read: " + simdjson::error_message(e);
    od::parser parser;
    const char *p = buf.data();
    const char *end = p + buf.size();
    const char *bufferEnd = end + simdjson::SIMDJSON_PADDING;
    size_t lineNo = 0;
    while (p < end) {
        const char *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
        const char *lineEnd = nl ? nl : end;
        ++lineNo;
        const char *b = p;
        const char *e = lineEnd;
        while (b < e && (*b == ' ' || *b == '\t' || *b == '\r'))
            ++b;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            --e;
        p = lineEnd + 1;
        if (b == e)
            continue;
        if (ctx.cancel && ctx.cancel->cancelled())
            return path + ": cancelled";
        std::string why = parseLine(parser, b, size_t(e - b), size_t(bufferEnd - b), out, lineNo);
        if (why.empty())
            continue;
        // The Tracer appends and flushes line by line: an unterminated last line is a write cut
        // short, not a broken file.
        if (!nl) {
            out.warnings.push_back(path + ":" + std::to_string(lineNo) + ": incomplete last line skipped (" + why +
                                   "); the run was killed or is still writing");
            continue;
        }
        return path + ":" + std::to_string(lineNo) + ": " + why;
    }
    if (ctx.progress)
        ctx.progress(1.0);
    if (out.skippedPhases)
        out.warnings.push_back(std::to_string(out.skippedPhases) +
                               " events of phases other than B, E, X, i, I, M skipped");
    return {};
}

struct OpenRange
{
    uint32_t name;
    uint32_t cat;
    int64_t start;
};

// Adds one worker's events to `b` under process `pid`; those without a possible time are counted
// in `audit` under `table`.
void fillWorker(const ParsedFile &file, uint32_t worker, uint32_t pid, StoreBuilder &b, ReportMeta &meta,
                EventTimeAudit &audit, std::string_view table)
{
    std::vector<NameId> names(file.strings.size(), kNoName);
    auto name = [&](uint32_t s) {
        if (names[s] == kNoName && !file.strings[s].empty())
            names[s] = b.intern(file.strings[s]);
        return names[s];
    };
    std::map<uint32_t, uint16_t> scopes;
    auto scope = [&](uint32_t cat) {
        auto it = scopes.find(cat);
        if (it == scopes.end()) {
            const NameId cn = b.intern(cat ? std::string_view(file.strings[cat]) : std::string_view("(no category)"));
            it = scopes.emplace(cat, b.nvtxScope({pid, cat + 1ull, kNoName, cat + 1u, cn})).first;
        }
        return it->second;
    };
    std::vector<std::vector<OpenRange>> open(file.tids[worker].size());
    size_t unmatchedEnds = 0;
    for (const RawEvent &ev : file.events) {
        if (ev.worker != worker)
            continue;
        if (ev.badTime) {
            audit.dropped(table, 1);
            continue;
        }
        const uint32_t tid = ev.tid + 1;
        if (ev.ph == 'B') {
            open[ev.tid].push_back({ev.name, ev.cat, ev.ts});
        } else if (ev.ph == 'E') {
            auto &stack = open[ev.tid];
            auto it = std::find_if(stack.rbegin(), stack.rend(), [&](const OpenRange &r) { return r.name == ev.name; });
            if (it == stack.rend()) {
                ++unmatchedEnds;
                continue;
            }
            const bool innermost = it == stack.rbegin();
            const TrackKind kind = innermost ? TrackKind::NvtxPushPop : TrackKind::NvtxStartEnd;
            b.add(b.track({kind, pid, tid, 0}), it->start, ev.ts, name(ev.name), 0, scope(it->cat));
            stack.erase(std::next(it).base());
        } else if (ev.ph == 'X') {
            // Both plausible (badTime), so the sum fits; a negative dur is clipped, and counted, later.
            b.add(b.track({TrackKind::NvtxPushPop, pid, tid, 0}), ev.ts, ev.ts + ev.dur, name(ev.name), 0,
                  scope(ev.cat));
        } else {
            b.add(b.track({TrackKind::NvtxMark, pid, tid, 0}), ev.ts, ev.ts, name(ev.name), 0, scope(ev.cat));
        }
    }
    size_t unclosed = 0;
    for (const auto &stack : open)
        unclosed += stack.size();
    const std::string &w = file.workers[worker];
    if (unmatchedEnds)
        meta.warnings.push_back(w + ": " + std::to_string(unmatchedEnds) + " E events without a B of the same name");
    if (unclosed)
        meta.warnings.push_back(w + ": " + std::to_string(unclosed) +
                                " ranges never ended (B without E: the run stopped inside them)");
    b.setProcessName(pid, b.intern(w));
    for (size_t t = 0; t < file.tids[worker].size(); ++t)
        b.setThreadName(pid, uint32_t(t + 1), b.intern(file.tids[worker][t]));
}

// What the warnings call the file's events.
std::string tableName(const std::string &path)
{
    return path.substr(path.find_last_of('/') + 1);
}

// Ends before their start (an E before its B, a negative dur) or far beyond the report's span are
// clipped; one warning for the report, naming the file.
void clipImpossibleTimes(EventTimeAudit &audit, std::string_view table, StoreBuilder &b, ReportMeta &meta)
{
    formats::clipImpossibleTimes(
        b, audit, [&](const TrackKey &) { return table; }, meta);
}

void initMeta(ReportMeta &meta, const ParsedFile &file)
{
    meta.format = TraceFormat::RlinfTracer;
    meta.utcStartNs = 0; // epoch times
    meta.warnings = file.warnings;
}

} // namespace

std::string readRlinfTraceEvents(const std::string &path, std::vector<TracerWorkerData> &workers,
                                 const ReadContext &ctx)
{
    ParsedFile file;
    if (std::string error = parseFile(path, ctx, file); !error.empty())
        return error;
    if (file.workers.empty())
        return path + ": no trace events; expected RLinf tracer lines ({\"name\", \"ph\", \"ts\", \"pid\", ...})";
    workers.clear();
    workers.resize(file.workers.size());
    const std::string table = tableName(path);
    for (uint32_t w = 0; w < file.workers.size(); ++w) {
        TracerWorkerData &out = workers[w];
        out.worker = file.workers[w];
        initMeta(out.meta, file);
        EventTimeAudit audit;
        fillWorker(file, w, 0, out.builder, out.meta, audit, table);
        clipImpossibleTimes(audit, table, out.builder, out.meta);
    }
    return {};
}

ReportIdentity rlinfTracerIdentity(const std::string &path, const std::string &worker)
{
    ReportIdentity id = identityOfFile(path);
    id.group = worker;
    id.rank.reset();
    id.step.reset();
    // WorkerAddress.get_name(): root group name + ":<rank>" per level of the rank path.
    const size_t colon = worker.rfind(':');
    int rank = 0;
    if (colon != std::string::npos) {
        const char *first = worker.data() + colon + 1;
        const char *last = worker.data() + worker.size();
        auto [p, ec] = std::from_chars(first, last, rank);
        if (ec == std::errc() && p == last && first != last) {
            id.group = worker.substr(0, colon);
            id.rank = rank;
        }
    }
    completeIdentity(id, ReportMeta{});
    return id;
}

std::vector<ReportPtr> loadRlinfTraceReports(const std::string &path, const ReadContext &ctx, std::string &error)
{
    std::vector<TracerWorkerData> workers;
    error = readRlinfTraceEvents(path, workers, ctx);
    std::error_code ec;
    const std::string absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
    if (!error.empty())
        return {};
    const FileStamp stamp = fileStamp(path);
    std::vector<ReportPtr> reports;
    for (TracerWorkerData &w : workers) {
        auto report = std::make_shared<Report>();
        report->path = path + "#" + w.worker;
        report->fileSize = stamp.size;
        report->fileMtimeNs = stamp.mtimeNs;
        report->meta = std::move(w.meta);
        auto store = std::make_shared<EventStore>(std::move(w.builder).build());
        for (int k = 0; k < kTrackKindCount; ++k)
            report->meta.fileCounts[size_t(k)] = store->count(TrackKind(k));
        report->store = std::move(store);
        report->identity = rlinfTracerIdentity(ec ? path : absolute, w.worker);
        reports.push_back(std::move(report));
    }
    return reports;
}

bool RlinfTracerReader::probe(std::string_view path, std::string_view head) const
{
    if (!formats::endsWith(path, ".jsonl"))
        return false;
    const size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{')
        return false;
    const std::string_view line = head.substr(first, head.find('\n', first) - first);
    return line.find("\"ph\"") != std::string_view::npos;
}

std::string RlinfTracerReader::read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                                    const ReadContext &ctx) const
{
    ParsedFile file;
    if (std::string error = parseFile(path, ctx, file); !error.empty())
        return error;
    initMeta(meta, file);
    const std::string table = tableName(path);
    EventTimeAudit audit;
    for (uint32_t w = 0; w < file.workers.size(); ++w)
        fillWorker(file, w, w + 1, builder, meta, audit, table);
    clipImpossibleTimes(audit, table, builder, meta);
    return {};
}

} // namespace ps::core::trace
