// The CUDA memory snapshot reader: the decoded pickle (pickledecoder.h) into MemorySnapshot.
// Dict keys are looked up by interned id, stacks are deduplicated first by the identity of the
// frames list (torch shares one list between the entries of one traceback), then by content.

#include "core/trace/formats/torchmemorysnapshot.h"

#include "core/common/memorybudget.h"
#include "core/trace/formats/bytesource.h"
#include "core/trace/formats/pickledecoder.h"
#include "core/trace/formats/torchmemoryfiles.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

namespace ps::core::trace {

using formats::PickleDoc;
using formats::PyKind;
using formats::PyValue;

namespace {

constexpr uint32_t kNoKey = UINT32_MAX;
// No device holds a block, or a segment, of 16 TiB (today's hold under 2^38 bytes)...
constexpr int64_t kMaxSize = int64_t(1) << 44;
// ...nor 1 PiB at once: a device's segments, or the bytes a trace keeps live, beyond this are
// sizes no device had (an INT64_MAX size once gave an 8 EiB peak). Sums below it cannot wrap.
constexpr int64_t kMaxDeviceBytes = int64_t(1) << 50;
constexpr int64_t kMaxTimeUs = 9000000000000000;
// The snapshot's trace entries are converted in file order; every this many, the arena below
// the entries converted one window earlier is handed back, so the document and the model are
// not both resident in full.
constexpr size_t kReleaseEvery = 65536;

struct Keys
{
    uint32_t segments, deviceTraces, allocatorSettings, blocks, frames, address, addr, size, requestedSize, state,
        device, totalSize, allocatedSize, activeSize, stream, segmentType, isExpandable, action, timeUs, deviceFree,
        filename, name, line;
    explicit Keys(const PickleDoc &d)
    {
        auto id = [&](std::string_view s) { return d.findText(s).value_or(kNoKey); };
        segments = id("segments");
        deviceTraces = id("device_traces");
        allocatorSettings = id("allocator_settings");
        blocks = id("blocks");
        frames = id("frames");
        address = id("address");
        addr = id("addr");
        size = id("size");
        requestedSize = id("requested_size");
        state = id("state");
        device = id("device");
        totalSize = id("total_size");
        allocatedSize = id("allocated_size");
        activeSize = id("active_size");
        stream = id("stream");
        segmentType = id("segment_type");
        isExpandable = id("is_expandable");
        action = id("action");
        timeUs = id("time_us");
        deviceFree = id("device_free");
        filename = id("filename");
        name = id("name");
        line = id("line");
    }
};

MemAction actionOf(std::string_view s)
{
    static const std::pair<std::string_view, MemAction> k[] = {
        {"alloc", MemAction::Alloc},
        {"free_requested", MemAction::FreeRequested},
        {"free_completed", MemAction::FreeCompleted},
        {"free", MemAction::FreeCompleted},
        {"segment_alloc", MemAction::SegmentAlloc},
        {"segment_free", MemAction::SegmentFree},
        {"segment_map", MemAction::SegmentMap},
        {"segment_unmap", MemAction::SegmentUnmap},
        {"snapshot", MemAction::Snapshot},
        {"oom", MemAction::Oom},
        {"annotate", MemAction::Annotate},
    };
    for (const auto &[name, a] : k)
        if (name == s)
            return a;
    return MemAction::Other;
}

// Where a value sits in the snapshot ("device_traces[0][12]", "segments[3].blocks[2]"), spelled
// out only when something fails there: a snapshot has millions of entries and few errors.
struct Where
{
    const Where *parent = nullptr;
    const char *field = ""; // "segments", ".blocks"; "" for an index alone
    int64_t index = -1;     // -1: none
    std::string text() const
    {
        return (parent ? parent->text() : std::string()) + field +
               (index >= 0 ? "[" + std::to_string(index) + "]" : std::string());
    }
};

class SnapshotBuilder
{
public:
    SnapshotBuilder(PickleDoc &doc, MemorySnapshot &out) : d(doc), k(doc), m_out(out) {}
    std::string run();

private:
    bool fail(const Where &where, const std::string &why)
    {
        if (m_error.empty())
            m_error = m_out.path + ": " + where.text() + ": " + why;
        return false;
    }
    bool intField(PyValue dict, uint32_t key, const Where &where, const char *name, int64_t &out, bool required = true);
    bool sizeField(PyValue dict, uint32_t key, const Where &where, const char *name, int64_t &out,
                   bool required = true);
    bool readSegments(PyValue list);
    bool readSegment(PyValue seg, const Where &where);
    bool readBlocks(PyValue list, MemSegment &seg, const Where &where);
    bool readTraces(PyValue list);
    bool checkDeviceBytes();
    bool readEntry(PyValue e, size_t device, size_t index, std::vector<MemTraceEntry> &out);
    bool stackOf(PyValue frames, const Where &where, uint32_t &out);
    bool frameOf(PyValue frame, const Where &where, uint32_t &out);
    uint16_t streamIndex(int64_t stream);
    void readSettings(PyValue dict);
    std::string displayText(PyValue v, int depth) const;
    bool convertOnce(PyValue dict, const Where &where);

    PickleDoc &d;
    const Keys k;
    MemorySnapshot &m_out;
    std::unordered_map<uint64_t, uint32_t> m_stackByList;   // frames list node -> stack
    std::unordered_map<std::string, uint32_t> m_stackByKey; // frame indices as bytes -> stack
    std::unordered_map<uint64_t, uint32_t> m_frameByDict;
    std::unordered_map<std::string, uint32_t> m_frameByKey;
    // One bit per container of the file: the entries, blocks and segments converted so far.
    std::vector<bool> m_converted;
    std::string m_error;
};

// The bound on what a snapshot may cost: torch writes every trace entry, block and segment as a
// dict of its own, so each is converted at most once. A file that shares one through the memo
// (`[[entry] * 200000] * 1000` is 400 KB and would be 2 * 10^8 entries) is refused where the
// second reference stands: the model then holds at most one record per container the file makes,
// memory in proportion to the file's bytes. (Frames and stacks are shared legitimately and are
// kept once per list and per dict: stackOf, frameOf.)
bool SnapshotBuilder::convertOnce(PyValue dict, const Where &where)
{
    const auto number = d.containerNumber(dict);
    if (!number)
        return fail(where, "not a container");
    if (m_converted.empty())
        m_converted.resize(d.containerCount());
    if (m_converted[*number])
        return fail(where, "the same object as an earlier record (shared through the pickle's memo): a "
                           "snapshot lists each record once, and shared records would multiply the file");
    m_converted[*number] = true;
    return true;
}

bool SnapshotBuilder::intField(PyValue dict, uint32_t key, const Where &where, const char *name, int64_t &out,
                               bool required)
{
    const PyValue v = d.get(dict, key);
    if (v.absent())
        return !required || fail(where, std::string("no '") + name + "'");
    const auto i = d.toInt(v);
    if (!i)
        return fail(where, std::string("'") + name + "' is not a 64-bit int");
    out = *i;
    return true;
}

// Sizes and times are bounded so that sums of them and ns (µs * 1000) stay within int64.
bool SnapshotBuilder::sizeField(PyValue dict, uint32_t key, const Where &where, const char *name, int64_t &out,
                                bool required)
{
    if (!intField(dict, key, where, name, out, required))
        return false;
    const bool time = std::string_view(name) == "time_us";
    const bool ok = time ? (out > -kMaxTimeUs && out < kMaxTimeUs) : (out >= 0 && out < kMaxSize);
    return ok || fail(where, std::string("'") + name + "' out of range: " + std::to_string(out));
}

uint16_t SnapshotBuilder::streamIndex(int64_t stream)
{
    auto &s = m_out.streams;
    for (size_t i = 0; i < s.size(); ++i)
        if (s[i] == stream)
            return uint16_t(i);
    if (s.size() >= UINT16_MAX)
        return UINT16_MAX;
    s.push_back(stream);
    return uint16_t(s.size() - 1);
}

bool SnapshotBuilder::frameOf(PyValue frame, const Where &where, uint32_t &out)
{
    if (auto it = m_frameByDict.find(frame.bits); it != m_frameByDict.end()) {
        out = it->second;
        return true;
    }
    if (d.kind(frame) != PyKind::Dict)
        return fail(where, "a frame is not a dict");
    MemFrame f;
    f.name = std::string(d.text(d.get(frame, k.name)));
    f.file = std::string(d.text(d.get(frame, k.filename)));
    f.line = d.toInt(d.get(frame, k.line)).value_or(0);
    std::string key = f.name + '\0' + f.file + '\0' + std::to_string(f.line);
    auto [it, added] = m_frameByKey.emplace(std::move(key), uint32_t(m_out.frames.size()));
    if (added)
        m_out.frames.push_back(std::move(f));
    out = it->second;
    m_frameByDict.emplace(frame.bits, out);
    return true;
}

bool SnapshotBuilder::stackOf(PyValue frames, const Where &where, uint32_t &out)
{
    out = 0;
    if (frames.absent() || d.kind(frames) == PyKind::None)
        return true;
    if (auto it = m_stackByList.find(frames.bits); it != m_stackByList.end()) {
        out = it->second;
        return true;
    }
    if (d.kind(frames) != PyKind::List && d.kind(frames) != PyKind::Tuple)
        return fail(where, "'frames' is not a list");
    std::vector<uint32_t> ids;
    bool ok = true;
    d.forEach(frames, [&](PyValue f) {
        uint32_t id = 0;
        ok = frameOf(f, where, id);
        ids.push_back(id);
        return ok;
    });
    if (!ok)
        return false;
    if (ids.empty()) {
        m_stackByList.emplace(frames.bits, 0);
        return true;
    }
    std::string key(reinterpret_cast<const char *>(ids.data()), ids.size() * sizeof(uint32_t));
    auto [it, added] = m_stackByKey.emplace(std::move(key), 0);
    if (added)
        it->second = m_out.addStack(ids.data(), ids.size());
    out = it->second;
    m_stackByList.emplace(frames.bits, out);
    return true;
}

MemBlockState blockState(std::string_view s)
{
    if (s == "active_allocated")
        return MemBlockState::ActiveAllocated;
    if (s == "active_pending_free" || s == "active_awaiting_free")
        return MemBlockState::ActivePendingFree;
    if (s == "inactive")
        return MemBlockState::Inactive;
    return MemBlockState::Other;
}

bool SnapshotBuilder::readBlocks(PyValue list, MemSegment &seg, const Where &where)
{
    seg.firstBlock = uint32_t(m_out.blocks.size());
    uint64_t next = seg.addr; // blocks tile their segment; older files omit the address
    size_t i = 0;
    bool ok = true;
    d.forEach(list, [&](PyValue b) {
        const Where at{&where, ".blocks", int64_t(i++)};
        MemBlock blk;
        int64_t addr = int64_t(next), req = 0;
        ok = d.kind(b) == PyKind::Dict ? convertOnce(b, at) : fail(at, "not a dict");
        ok = ok && sizeField(b, k.size, at, "size", blk.size);
        ok = ok && sizeField(b, k.requestedSize, at, "requested_size", req, false);
        ok = ok && intField(b, k.addr, at, "addr", addr, false) && intField(b, k.address, at, "address", addr, false);
        ok = ok && stackOf(d.get(b, k.frames), at, blk.stack);
        if (!ok)
            return false;
        blk.addr = uint64_t(addr);
        blk.requestedSize = d.get(b, k.requestedSize).absent() ? blk.size : req;
        blk.state = blockState(d.text(d.get(b, k.state)));
        next = blk.addr + uint64_t(blk.size);
        m_out.blocks.push_back(blk);
        return true;
    });
    seg.blockCount = uint32_t(m_out.blocks.size() - seg.firstBlock);
    return ok;
}

bool SnapshotBuilder::readSegment(PyValue s, const Where &where)
{
    if (d.kind(s) != PyKind::Dict)
        return fail(where, "not a dict");
    if (!convertOnce(s, where))
        return false;
    MemSegment seg;
    int64_t addr = 0;
    bool ok =
        intField(s, k.device, where, "device", seg.device, false) && intField(s, k.address, where, "address", addr) &&
        sizeField(s, k.totalSize, where, "total_size", seg.totalSize) &&
        sizeField(s, k.allocatedSize, where, "allocated_size", seg.allocatedSize, false) &&
        sizeField(s, k.activeSize, where, "active_size", seg.activeSize, false) &&
        sizeField(s, k.requestedSize, where, "requested_size", seg.requestedSize, false) &&
        intField(s, k.stream, where, "stream", seg.stream, false) && stackOf(d.get(s, k.frames), where, seg.stack);
    if (!ok)
        return false;
    seg.addr = uint64_t(addr);
    seg.type = std::string(d.text(d.get(s, k.segmentType)));
    seg.expandable = d.toBool(d.get(s, k.isExpandable)).value_or(false);
    const PyValue blocks = d.get(s, k.blocks);
    if (!blocks.absent() && d.kind(blocks) != PyKind::List)
        return fail(where, "'blocks' is not a list");
    if (!readBlocks(blocks, seg, where))
        return false;
    m_out.segments.push_back(std::move(seg));
    return true;
}

bool SnapshotBuilder::readSegments(PyValue list)
{
    if (d.kind(list) != PyKind::List)
        return fail(Where{nullptr, "segments"}, "not a list");
    size_t i = 0;
    bool ok = true;
    d.forEach(list, [&](PyValue s) { return ok = readSegment(s, Where{nullptr, "segments", int64_t(i++)}); });
    return ok;
}

bool SnapshotBuilder::readEntry(PyValue e, size_t device, size_t index, std::vector<MemTraceEntry> &out)
{
    const Where trace{nullptr, "device_traces", int64_t(device)};
    const Where where{&trace, "", int64_t(index)};
    if (d.kind(e) != PyKind::Dict)
        return fail(where, "not a dict");
    if (!convertOnce(e, where))
        return false;
    MemTraceEntry t;
    t.action = actionOf(d.text(d.get(e, k.action)));
    int64_t addr = 0, stream = 0;
    const uint32_t addrKey = t.action == MemAction::Oom ? k.deviceFree : k.addr;
    if (!intField(e, addrKey, where, t.action == MemAction::Oom ? "device_free" : "addr", addr, false) ||
        !sizeField(e, k.size, where, "size", t.size, false) || !intField(e, k.stream, where, "stream", stream, false) ||
        !sizeField(e, k.timeUs, where, "time_us", t.timeUs, false))
        return false;
    m_out.hasTimes = m_out.hasTimes || !d.get(e, k.timeUs).absent();
    const PyValue frames = d.get(e, k.frames);
    if (!frames.absent() && !stackOf(frames, where, t.stack))
        return false;
    t.addr = uint64_t(addr);
    t.stream = streamIndex(stream);
    out.push_back(t);
    return true;
}

bool SnapshotBuilder::readTraces(PyValue list)
{
    if (d.kind(list) != PyKind::List)
        return fail(Where{nullptr, "device_traces"}, "not a list");
    bool ok = true;
    d.forEach(list, [&](PyValue trace) {
        const size_t device = m_out.traces.size();
        m_out.traces.emplace_back();
        const Where where{nullptr, "device_traces", int64_t(device)};
        if (d.kind(trace) != PyKind::List)
            return ok = fail(where, "not a list");
        if (!convertOnce(trace, where))
            return ok = false;
        auto &entries = m_out.traces.back();
        entries.reserve(d.size(trace));
        size_t i = 0;
        PyValue passed; // the entry read a window ago: nothing later refers back before it
        d.forEach(trace, [&](PyValue e) {
            if (++i % kReleaseEvery == 0) {
                d.releaseBefore(passed);
                passed = e;
            }
            return ok = readEntry(e, device, i - 1, entries);
        });
        return ok;
    });
    return ok;
}

std::string SnapshotBuilder::displayText(PyValue v, int depth) const
{
    switch (d.kind(v)) {
    case PyKind::None:
        return "None";
    case PyKind::Bool:
        return *d.toBool(v) ? "True" : "False";
    case PyKind::Int:
        return std::to_string(*d.toInt(v));
    case PyKind::Float:
        return std::to_string(*d.toDouble(v));
    case PyKind::Str:
        return std::string(d.text(v));
    default:
        break;
    }
    if (depth > 4 || !d.isContainer(v))
        return "...";
    std::string s;
    auto sep = [&] { s += s.empty() ? "" : ", "; };
    if (d.kind(v) == PyKind::Dict)
        d.forEachItem(v, [&](PyValue key, PyValue val) {
            sep();
            s += displayText(key, depth + 1) + ": " + displayText(val, depth + 1);
            return s.size() < 4096;
        });
    else
        d.forEach(v, [&](PyValue item) {
            sep();
            s += displayText(item, depth + 1);
            return s.size() < 4096;
        });
    return d.kind(v) == PyKind::Dict ? "{" + s + "}" : "[" + s + "]";
}

// allocator_settings is a dozen keys; its text is bounded (kMaxSettings of at most about 8 KB
// each) so that one value shared under many keys cannot multiply the file either.
void SnapshotBuilder::readSettings(PyValue dict)
{
    constexpr size_t kMaxSettings = 256;
    d.forEachItem(dict, [&](PyValue key, PyValue val) {
        if (m_out.allocatorSettings.size() == kMaxSettings) {
            m_out.warnings.push_back("allocator_settings: only the first " + std::to_string(kMaxSettings) + " of " +
                                     std::to_string(d.size(dict)) + " settings are shown");
            return false;
        }
        m_out.allocatorSettings.emplace_back(displayText(key, 0), displayText(val, 0));
        return true;
    });
}

std::string SnapshotBuilder::run()
{
    const PyValue root = d.root();
    if (d.kind(root) == PyKind::List) { // torch.cuda.memory_snapshot(): the segments only
        m_out.warnings.push_back("the file holds segments only (torch.cuda.memory_snapshot()), no trace");
        readSegments(root);
        return m_error;
    }
    if (d.kind(root) != PyKind::Dict)
        return m_out.path + ": not a memory snapshot (the pickle holds no dict)";
    const PyValue segments = d.get(root, k.segments);
    const PyValue traces = d.get(root, k.deviceTraces);
    if (segments.absent() && traces.absent())
        return m_out.path + ": not a memory snapshot (no 'segments' and no 'device_traces')";
    if (!segments.absent() && !readSegments(segments))
        return m_error;
    // Before the traces: reading them hands back what the file holds before each entry.
    readSettings(d.get(root, k.allocatorSettings));
    if (traces.absent())
        m_out.warnings.push_back("no device_traces: memory history was not recorded (_record_memory_history)");
    else if (!readTraces(traces))
        return m_error;
    checkDeviceBytes();
    return m_error;
}

// Every size is below kMaxSize, but many of them can still claim more than a device holds: each
// device's segments, and the bytes each trace allocates and has not freed (reserved, for segment
// actions) at any entry, stay within kMaxDeviceBytes either way (a trace may free what it began
// with), or the file is refused at the entry where they first do not.
bool SnapshotBuilder::checkDeviceBytes()
{
    std::unordered_map<int64_t, int64_t> reserved;
    for (size_t i = 0; i < m_out.segments.size(); ++i)
        if ((reserved[m_out.segments[i].device] += m_out.segments[i].totalSize) > kMaxDeviceBytes)
            return fail(Where{nullptr, "segments", int64_t(i)},
                        "the device's segments reserve more than 1 PiB, more than any device holds");
    for (size_t device = 0; device < m_out.traces.size(); ++device) {
        const Where trace{nullptr, "device_traces", int64_t(device)};
        int64_t live = 0, mapped = 0;
        const std::vector<MemTraceEntry> &entries = m_out.traces[device];
        for (size_t i = 0; i < entries.size(); ++i) {
            const MemAction a = entries[i].action;
            const int64_t size = entries[i].size;
            live += a == MemAction::Alloc ? size : a == MemAction::FreeCompleted ? -size : 0;
            const bool grows = a == MemAction::SegmentAlloc || a == MemAction::SegmentMap;
            mapped += grows ? size : a == MemAction::SegmentFree || a == MemAction::SegmentUnmap ? -size : 0;
            if (std::max(std::abs(live), std::abs(mapped)) > kMaxDeviceBytes)
                return fail(Where{&trace, "", int64_t(i)},
                            "the trace's sizes add up to more than 1 PiB live at once, more than any device holds");
        }
    }
    return true;
}

// What every trace entry carries and the reader never reads (torch.compile's context, the
// user's metadata): left out of the decoded document.
const formats::DecodeOptions &decodeOptions()
{
    static const formats::DecodeOptions o{{"compile_context", "user_metadata"}};
    return o;
}

// A gzip-compressed snapshot inflates to at most this many times its size (they compress about
// 13x: the tests' 484 KiB pickle is 37 KiB gzipped), and never past kMaxInflatedPickle.
constexpr uint64_t kMaxPickleInflateRatio = 128;
constexpr uint64_t kMaxInflatedPickle = uint64_t(4) << 30;
constexpr uint64_t kMinPickleInflateBound = uint64_t(64) << 20;

// The whole decompressed pickle of an opened gzip source, within its bound and the process's
// inflation budget.
std::string inflatePickle(const std::string &path, formats::ByteSource &src, std::string &bytes)
{
    const uint64_t bound =
        std::min(kMaxInflatedPickle, std::max(kMinPickleInflateBound, src.fileSize() * kMaxPickleInflateRatio));
    const MemoryBudget::Lease lease = MemoryBudget::inflation().lease(bound);
    size_t size = 0;
    bool overBound = false;
    if (std::string e = formats::readAllBounded(src, bound, 0, bytes, size, overBound); !e.empty())
        return e;
    if (overBound)
        return path + ": more than " + std::to_string(bound >> 20) + " MiB once decompressed (" +
               std::to_string(src.fileSize()) + " bytes on disk): a gzip bomb, not a memory snapshot; not read";
    return bytes.empty() ? path + ": empty once decompressed, not a pickle" : std::string();
}

} // namespace

uint32_t MemorySnapshot::addStack(const uint32_t *frames, size_t n)
{
    m_stackFrames.insert(m_stackFrames.end(), frames, frames + n);
    m_stackStart.push_back(uint32_t(m_stackFrames.size()));
    return uint32_t(m_stackStart.size() - 2);
}

std::string readMemorySnapshot(const std::string &path, MemorySnapshot &out)
{
    out = MemorySnapshot();
    out.path = path;
    out.identity = memoryFileIdentity(path);
    PickleDoc doc;
    // A gzipped pickle (told by its bytes, as ByteSource tells it) is inflated whole; any other
    // file is decoded from its mapping, released as the decoder passes (which also says why a
    // file cannot be read).
    std::string error;
    if (formats::ByteSource src; src.open(path).empty() && src.compressed()) {
        std::string bytes;
        error = inflatePickle(path, src, bytes);
        if (error.empty())
            error = formats::decodePickle(bytes, path, doc, decodeOptions());
    } else {
        error = formats::decodePickleFile(path, doc, decodeOptions());
    }
    return error.empty() ? SnapshotBuilder(doc, out).run() : error;
}

std::string readMemorySnapshotBytes(std::string_view bytes, const std::string &name, MemorySnapshot &out)
{
    out = MemorySnapshot();
    out.path = name;
    out.identity = memoryFileIdentity(name);
    PickleDoc doc;
    std::string error = formats::decodePickle(bytes, name, doc, decodeOptions());
    return error.empty() ? SnapshotBuilder(doc, out).run() : error;
}

} // namespace ps::core::trace
