#include "core/trace/formats/kinetoreader.h"

#include "core/trace/formats/bytesource.h"
#include "core/trace/formats/formatutil.h"
#include "core/trace/formats/kinetoevent.h"
#include "core/trace/formats/kinetoheader.h"
#include "core/trace/formats/kinetoingest.h"
#include "core/trace/formats/traceeventsplitter.h"
#include "core/trace/store/eventtimes.h"

#include <climits>

namespace ps::core::trace {

using namespace formats;

namespace {

// The JSON key whose events the warnings count.
constexpr std::string_view kTraceEvents = "traceEvents";

// Streams traceEvents through the decoder into the ingest. "" or an error naming the file.
std::string ingestEvents(const std::string &path, ByteSource &src, TraceEventSplitter &splitter, kineto::Ingest &ingest,
                         const ReadContext &ctx)
{
    kineto::Decoder decoder;
    std::string batchError;
    size_t batches = 0;
    const std::string err = splitter.run(src, [&](std::string_view batch) {
        if (ctx.cancel && ctx.cancel->cancelled())
            return false;
        batchError = decoder.decodeBatch(batch, ingest);
        if (!batchError.empty())
            return false;
        if (ctx.progress && (++batches % 4) == 0)
            ctx.progress(src.progress() * 0.95);
        return true;
    });
    if (!batchError.empty())
        return path + ": malformed JSON in traceEvents (" + batchError + ")";
    if (err == "cancelled")
        return path + ": cancelled";
    if (!err.empty())
        return path + ": " + err + (src.compressed() ? " (gzip)" : "") + "; expected a PyTorch profiler (Kineto) trace";
    return {};
}

// distributedInfo's rank and world size as the process's recorded identity (they name the
// ranks torch.distributed, and so NCCL, use).
void recordDistributedInfo(const kineto::Header &h, ReportMeta &meta)
{
    LaunchIdentity id;
    if (h.rank)
        id.rank = Recorded<int>{*h.rank, "distributedInfo.rank"};
    if (h.worldSize)
        id.worldSize = Recorded<int>{*h.worldSize, "distributedInfo.world_size"};
    if (id.rank && id.worldSize && id.rank->value >= id.worldSize->value) {
        meta.warnings.push_back(std::string(kInvalidDataWarning) + "distributedInfo.rank " +
                                std::to_string(id.rank->value) + " is not below distributedInfo.world_size " +
                                std::to_string(id.worldSize->value) + "; neither is used as the report's identity");
        return;
    }
    if (!id.empty())
        meta.processIdentities.push_back({0, "distributedInfo", std::move(id)});
}

// Header facts into meta; the rank from distributedInfo, else "rank-N"/"rank_N" in the name.
void applyHeader(const std::string &path, const std::string &headerText, ReportMeta &meta, kineto::Header &h)
{
    if (std::string herr = kineto::parseHeader(headerText, h); !herr.empty())
        meta.warnings.push_back("top-level metadata unreadable (" + herr + ")");
    meta.schemaVersion = h.schemaVersion;
    meta.host = h.host;
    meta.gpus = h.gpus;
    for (const std::string &p : h.problems)
        meta.warnings.push_back(std::string(kInvalidDataWarning) + p);
    recordDistributedInfo(h, meta);
    meta.rank = h.rank;
    if (!meta.rank) {
        const std::string name = path.substr(path.find_last_of('/') + 1);
        meta.rank = numberAfter(name, "rank-");
        if (!meta.rank)
            meta.rank = numberAfter(name, "rank_");
    }
}

// Epoch timestamps are >= 1e14 µs (1973 on); relative ones are far smaller (spec 4).
void applyTimeBase(int64_t minTs, const kineto::Header &h, ReportMeta &meta)
{
    const bool absolute = minTs != INT64_MAX && minTs >= int64_t(1e17);
    if (absolute) {
        meta.utcStartNs = 0;
        if (h.baseTimeNs)
            meta.warnings.push_back("baseTimeNanoseconds present but timestamps are already epoch-based; "
                                    "the base is ignored");
    } else if (h.baseTimeNs) {
        meta.utcStartNs = *h.baseTimeNs;
    } else if (minTs != INT64_MAX) {
        meta.warnings.push_back("relative timestamps without baseTimeNanoseconds: no UTC origin, align by start "
                                "or on an anchor");
    }
}

// distributedInfo's world and pg_config, for matching collectives across ranks.
void addProcessGroups(const kineto::Header &h, StoreBuilder &b)
{
    if (h.worldSize) {
        ProcessGroupInfo world;
        world.size = *h.worldSize;
        world.isWorld = 1;
        b.addProcessGroup(world);
    }
    for (const kineto::ProcessGroupConfig &pg : h.processGroups)
        b.addProcessGroup({b.intern(pg.name), b.intern(pg.desc), b.intern(pg.ranks), b.intern(pg.backend), pg.size, 0});
}

void warnAboutSkipped(const kineto::Ingest &ingest, ReportMeta &meta)
{
    if (ingest.malformed)
        meta.warnings.push_back(std::to_string(ingest.malformed) +
                                " trace events without a timestamp or with unmatched B/E were skipped or closed");
    for (auto [ph, n] : ingest.skippedPhases)
        meta.warnings.push_back(std::to_string(n) + " events of phase '" + std::string(1, ph) +
                                "' are not drawn (counters/async events are not read)");
}

} // namespace

bool KinetoReader::probe(std::string_view path, std::string_view head) const
{
    if (endsWith(path, ".json") || endsWith(path, ".json.gz"))
        return true;
    if (head.size() >= 2 && uint8_t(head[0]) == 0x1f && uint8_t(head[1]) == 0x8b)
        return false; // gzip of something not named as JSON
    const size_t first = head.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && (head[first] == '{' || head[first] == '[') &&
           head.find("\"traceEvents\"") != std::string_view::npos;
}

std::string KinetoReader::read(const std::string &path, StoreBuilder &b, ReportMeta &meta, const ReadContext &ctx) const
{
    meta.format = TraceFormat::KinetoJson;
    ByteSource src;
    if (std::string err = src.open(path); !err.empty())
        return err;
    kineto::Ingest ingest(b, meta);
    TraceEventSplitter splitter;
    if (std::string err = ingestEvents(path, src, splitter, ingest, ctx); !err.empty())
        return err;
    ingest.finish();
    // Events whose ts/dur is no possible time were dropped by the ingest; ends before their start
    // (a negative dur, an E before its B) or far beyond the report's span are clipped here.
    EventTimeAudit audit;
    audit.dropped(kTraceEvents, ingest.badTimes);
    clipImpossibleTimes(
        b, audit, [](const TrackKey &) { return kTraceEvents; }, meta);

    kineto::Header h;
    applyHeader(path, splitter.header(), meta, h);
    addProcessGroups(h, b);
    applyTimeBase(ingest.minTs(), h, meta);
    warnAboutSkipped(ingest, meta);
    if (ctx.progress)
        ctx.progress(1.0);
    return {};
}

} // namespace ps::core::trace
