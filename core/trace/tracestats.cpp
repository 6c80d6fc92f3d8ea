#include "core/trace/tracestats.h"

#include "core/common/canceltoken.h"
#include "core/trace/store/report.h"
#include "core/trace/tracesummary.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <unordered_map>

namespace ps::core::trace {

namespace {

constexpr size_t kCancelPollEvents = size_t(1) << 16;

// Style codes: the index into kStyles.
constexpr std::string_view kStyles[] = {"", "PushPop", "StartEnd"};

bool counts(StatsKind kind, TrackKind t)
{
    switch (kind) {
    case StatsKind::NvtxSum:
        return isRangeKind(t);
    case StatsKind::KernelSum:
        return t == TrackKind::Kernel;
    case StatsKind::OsrtSum:
        return t == TrackKind::OsRuntime;
    case StatsKind::CudaApiSum:
        return t == TrackKind::CudaApi;
    case StatsKind::GpuMemTimeSum:
    case StatsKind::GpuMemSizeSum:
        return t == TrackKind::Memcpy || t == TrackKind::Memset;
    }
    return false;
}

bool isMemoryStats(StatsKind kind)
{
    return kind == StatsKind::GpuMemTimeSum || kind == StatsKind::GpuMemSizeSum;
}

// The gpumem reports' key of a memset; a memcpy's key is its copy kind (< 2^16).
constexpr uint64_t kMemsetKey = uint64_t(1) << 16;
constexpr std::string_view kMemsetName = "[CUDA memset]";

// ENUM_CUDA_MEMCPY_OPER ids 0..13, named as nsys's gpumem reports name them.
constexpr std::string_view kMemcpyNames[] = {"[CUDA memcpy Unknown]",
                                             "[CUDA memcpy HtoD]",
                                             "[CUDA memcpy DtoH]",
                                             "[CUDA memcpy HtoA]",
                                             "[CUDA memcpy AtoH]",
                                             "[CUDA memcpy AtoA]",
                                             "[CUDA memcpy AtoD]",
                                             "[CUDA memcpy DtoA]",
                                             "[CUDA memcpy DtoD]",
                                             "[CUDA memcpy HtoH]",
                                             "[CUDA memcpy PtoP]",
                                             "[CUDA Unified Memory memcpy HtoD]",
                                             "[CUDA Unified Memory memcpy DtoH]",
                                             "[CUDA Unified Memory memcpy DtoD]"};

uint8_t styleCode(StatsKind kind, TrackKind t)
{
    if (kind == StatsKind::KernelSum)
        return 0;
    return t == TrackKind::NvtxPushPop ? 1 : 2;
}

bool isCancelled(const CancelToken *cancel)
{
    return cancel && cancel->cancelled();
}

// a - b, saturated (window bounds minus offsets may leave the int64 range).
int64_t subSaturated(int64_t a, int64_t b)
{
    int64_t r = 0;
    if (__builtin_sub_overflow(a, b, &r))
        return b > 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
    return r;
}

NameId domainNameOf(const EventStore &store, uint16_t attr)
{
    const auto scopes = store.nvtxScopes();
    return attr < scopes.size() ? scopes[attr].domainName : kNoName;
}

std::string rangeName(const EventStore &store, NameId text, NameId domain)
{
    const std::string_view t = store.name(text);
    const std::string_view d = t.empty() || domain == kNoName ? std::string_view() : store.name(domain);
    if (d.empty())
        return std::string(t);
    std::string s;
    s.reserve(d.size() + 1 + t.size());
    s.append(d).append(1, ':').append(t);
    return s;
}

// Durations per (name, style code).
using Groups = std::map<std::pair<std::string, uint8_t>, std::vector<int64_t>>;

// Calls add(style code, key, duration) for each of one report's events that `kind` counts
// (those starting in the window, when given). Keys are per report: nvtx_sum's is text id << 32 |
// domain name id, kernel_sum's the name id; keyName() turns them into the table's names. False
// when cancelled.
template <typename Add>
bool forEachKeyed(const EventStore &store, StatsKind kind, int64_t offset,
                  const std::optional<core::TimeWindow> &window, const CancelToken *cancel, Add &&add)
{
    std::vector<NameId> domainOf; // NVTX scope index -> domain name
    if (kind == StatsKind::NvtxSum)
        for (const NvtxScope &s : store.nvtxScopes())
            domainOf.push_back(s.domainName);
    size_t sincePoll = 0;
    for (const Track &t : store.tracks()) {
        if (!counts(kind, t.kind()))
            continue;
        if (isCancelled(cancel))
            return false;
        size_t a = 0, b = t.size();
        if (window) {
            const auto &starts = t.columns().start;
            const int64_t t0 = subSaturated(window->start, offset), t1 = subSaturated(window->end, offset);
            a = size_t(std::lower_bound(starts.begin(), starts.end(), t0) - starts.begin());
            b = std::max(a, size_t(std::lower_bound(starts.begin(), starts.end(), t1) - starts.begin()));
        }
        const uint8_t style = styleCode(kind, t.kind());
        const bool tasks = kind == StatsKind::KernelSum && t.trackClass() == TrackClass::DeviceTasks;
        const bool memset = t.kind() == TrackKind::Memset;
        for (size_t i = a; i < b; ++i) {
            if (tasks && t.taskClass(i) != DeviceTaskClass::Compute)
                continue; // an Ascend communication or other device task, not a kernel
            if (kind == StatsKind::OsrtSum && t.attr(i) != uint16_t(OsrtClass::Call))
                continue; // the profiler's own mark, not an OS call
            uint64_t key = t.name(i);
            if (kind == StatsKind::NvtxSum) {
                const uint16_t attr = t.attr(i);
                key = key << 32 | (attr < domainOf.size() ? domainOf[attr] : kNoName);
            } else if (isMemoryStats(kind)) {
                key = memset ? kMemsetKey : t.attr(i);
                if (!memset && memcpyOperationName(t.attr(i)).empty())
                    continue; // a copy kind nsys does not name: its join leaves the row out
            }
            add(style, key, isByteStats(kind) ? int64_t(t.bytes(i)) : t.duration(i));
            if (++sincePoll == kCancelPollEvents) {
                sincePoll = 0;
                if (isCancelled(cancel))
                    return false;
            }
        }
    }
    return true;
}

// `colonDefault`: the range of the default domain reads ":name", as nsys 2024.6 prints it.
std::string keyName(const EventStore &store, StatsKind kind, uint64_t key, bool colonDefault = false)
{
    if (isMemoryStats(kind))
        return std::string(key == kMemsetKey ? kMemsetName : memcpyOperationName(uint16_t(key)));
    if (kind == StatsKind::CudaApiSum)
        return std::string(cudaApiBaseName(store.name(NameId(key))));
    if (kind != StatsKind::NvtxSum)
        return std::string(store.name(NameId(key)));
    std::string name = rangeName(store, NameId(key >> 32), NameId(key));
    if (colonDefault && NameId(key) == kNoName)
        name.insert(name.begin(), ':');
    return name;
}

// nsys stats of the 2024.6 releases prints default-domain ranges as ":name" (other releases as
// "name"); with nsysReleaseNames, a report exported by one of them gets its names.
bool colonForDefaultDomain(const Report &r, const SummarizeOptions &options)
{
    return options.nsysReleaseNames && r.meta.format == TraceFormat::NsysSqlite &&
           r.meta.exporterVersion.rfind("2024.6.", 0) == 0;
}

// Adds the durations of one report's events (those starting in the window, when given) to
// `out`. False when cancelled.
bool collect(const EventStore &store, StatsKind kind, int64_t offset, const std::optional<core::TimeWindow> &window,
             const CancelToken *cancel, Groups &out, bool colonDefault = false)
{
    // Durations per id key first (ids are per report), strings once per key at the end.
    std::unordered_map<uint64_t, std::vector<int64_t>> byKey[std::size(kStyles)];
    uint64_t lastKey = 0;
    uint8_t lastStyle = 0;
    std::vector<int64_t> *last = nullptr; // nodes of an unordered_map stay put
    const bool ok = forEachKeyed(store, kind, offset, window, cancel, [&](uint8_t style, uint64_t key, int64_t d) {
        if (!last || key != lastKey || style != lastStyle) {
            last = &byKey[style][key];
            lastKey = key;
            lastStyle = style;
        }
        last->push_back(d);
    });
    if (!ok)
        return false;
    for (uint8_t style = 0; style < uint8_t(std::size(kStyles)); ++style)
        for (auto &[key, d] : byKey[style]) {
            auto &dst = out[{keyName(store, kind, key, colonDefault), style}];
            if (dst.empty())
                dst = std::move(d);
            else
                dst.insert(dst.end(), d.begin(), d.end());
        }
    return true;
}

// Statistics of one group; reorders `d`. O(n): the median comes from nth_element, not a sort.
StatRow statRow(const std::pair<std::string, uint8_t> &key, std::optional<size_t> report, std::vector<int64_t> &d)
{
    StatRow r;
    r.name = key.first;
    r.style = std::string(kStyles[key.second]);
    r.report = report;
    r.count = d.size();
    if (d.empty())
        return r;
    int64_t total = 0;
    for (int64_t v : d)
        total += v;
    const double mean = double(total) / double(d.size());
    r.totalNs = total;
    r.avgNs = mean;
    const auto [lo, hi] = std::minmax_element(d.begin(), d.end());
    r.minNs = *lo;
    r.maxNs = *hi;
    const size_t m = d.size() / 2;
    std::nth_element(d.begin(), d.begin() + std::ptrdiff_t(m), d.end());
    r.medNs = double(d[m]);
    if (d.size() % 2 == 0) // mean of the two middle values: d[m] and the largest below it
        r.medNs = (double(*std::max_element(d.begin(), d.begin() + std::ptrdiff_t(m))) + r.medNs) / 2.0;
    if (d.size() > 1) {
        double sq = 0;
        for (int64_t v : d)
            sq += (double(v) - mean) * (double(v) - mean);
        r.stddevNs = std::sqrt(sq / double(d.size() - 1));
    }
    return r;
}

// Orders one group's rows by total and fills in their Time (%).
void finishGroup(std::vector<StatRow> &rows)
{
    std::sort(rows.begin(), rows.end(), [](const StatRow &a, const StatRow &b) {
        if (a.totalNs != b.totalNs)
            return a.totalNs > b.totalNs;
        return a.name != b.name ? a.name < b.name : a.style < b.style;
    });
    long double sum = 0;
    for (const StatRow &r : rows)
        sum += r.totalNs;
    for (StatRow &r : rows)
        r.timePct = sum > 0 ? double((long double)r.totalNs * 100 / sum) : 0.0;
}

// finishGroup, then no Time (%) for the size report (its totals are bytes).
void finishGroup(std::vector<StatRow> &rows, StatsKind kind)
{
    finishGroup(rows);
    if (isByteStats(kind))
        for (StatRow &r : rows)
            r.timePct = 0;
}

} // namespace

namespace {

constexpr std::pair<StatsKind, std::string_view> kKindNames[] = {
    {StatsKind::NvtxSum, "nvtx_sum"},
    {StatsKind::KernelSum, "kernel_sum"},
    {StatsKind::OsrtSum, "osrt_sum"},
    {StatsKind::CudaApiSum, "cuda_api_sum"},
    {StatsKind::GpuMemTimeSum, "cuda_gpu_mem_time_sum"},
    {StatsKind::GpuMemSizeSum, "cuda_gpu_mem_size_sum"},
};

} // namespace

std::string_view statsKindName(StatsKind kind)
{
    for (const auto &[k, name] : kKindNames)
        if (k == kind)
            return name;
    return {};
}

std::optional<StatsKind> statsKindOf(std::string_view name)
{
    for (const auto &[k, n] : kKindNames)
        if (n == name)
            return k;
    return std::nullopt;
}

std::string_view memcpyOperationName(uint16_t copyKind)
{
    return copyKind < std::size(kMemcpyNames) ? kMemcpyNames[copyKind] : std::string_view();
}

std::string_view cudaApiBaseName(std::string_view name)
{
    // nsys: CASE substr(name, -6, 2) WHEN '_v' THEN the name without its last six characters.
    if (name.size() >= 6 && name.substr(name.size() - 6, 2) == "_v")
        return name.substr(0, name.size() - 6);
    return name;
}

std::string_view nvtxStyleName(TrackKind kind)
{
    return kind == TrackKind::NvtxPushPop ? kStyles[1] : kind == TrackKind::NvtxStartEnd ? kStyles[2] : kStyles[0];
}

DeviceTaskCounts countDeviceTasks(const EventStore &store)
{
    DeviceTaskCounts c;
    for (const Track &t : store.tracks()) {
        switch (t.kind()) {
        case TrackKind::Kernel:
            for (size_t i = 0; i < t.size(); ++i) {
                const DeviceTaskClass task = t.taskClass(i);
                ++(task == DeviceTaskClass::Communication ? c.communication
                   : task == DeviceTaskClass::Other       ? c.other
                                                          : c.compute);
            }
            break;
        case TrackKind::Memcpy:
        case TrackKind::Memset:
            c.memory += t.size();
            break;
        case TrackKind::Sync:
            c.sync += t.size();
            break;
        default:
            break;
        }
    }
    return c;
}

std::string nvtxRangeName(const EventStore &store, NameId text, uint16_t attr)
{
    return rangeName(store, text, domainNameOf(store, attr));
}

StatsResult summarize(std::span<const ReportPtr> reports, StatsKind kind)
{
    return summarize(reports, kind, SummarizeOptions{});
}

// The ranges of a report without its events: the occurrences its digest's statistics summary
// carries, those starting in the window. Kernels have totals only there: none are added. False
// with `problem` when the digest has no sound summary.
bool collectSummary(const Report &report, StatsKind kind, int64_t offset, const std::optional<core::TimeWindow> &window,
                    Groups &out, std::string &problem)
{
    if (kind == StatsKind::KernelSum)
        return true;
    if (kind != StatsKind::NvtxSum) {
        problem = report.path + ": " + std::string(statsKindName(kind)) +
                  " needs the report's events, and this digest has none (its statistics summary, SUMS, "
                  "holds nvtx_sum and kernel_sum only): run it on the report, or on a digest made "
                  "without --summary-only";
        return false;
    }
    const auto summary = summaryOf(report, kTraceSummary, problem);
    if (!summary)
        return false;
    for (const RangeSummary &r : summary->ranges) {
        const auto style = std::find(std::begin(kStyles), std::end(kStyles), r.style);
        if (style == std::end(kStyles))
            continue;
        std::vector<int64_t> &d = out[{r.name, uint8_t(style - std::begin(kStyles))}];
        for (const RangeOccurrence &o : r.occurrences)
            if (!window || (o.start + offset >= window->start && o.start + offset < window->end))
                d.push_back(o.duration);
        if (d.empty())
            out.erase({r.name, uint8_t(style - std::begin(kStyles))});
    }
    return true;
}

// False when cancelled; a report that cannot answer adds its reason to `problems`.
bool collectAny(const Report &report, StatsKind kind, int64_t offset, const SummarizeOptions &options, Groups &out,
                bool colon, std::vector<std::string> &problems)
{
    if (hasEvents(report))
        return collect(*report.store, kind, offset, options.window, options.cancel, out, colon);
    std::string problem;
    if (!collectSummary(report, kind, offset, options.window, out, problem))
        problems.push_back(problem);
    return true;
}

StatsResult summarize(std::span<const ReportPtr> reports, StatsKind kind, const SummarizeOptions &options)
{
    std::vector<size_t> which;
    if (options.reports) {
        std::vector<bool> seen(reports.size(), false);
        for (size_t ri : *options.reports)
            if (ri < reports.size() && !seen[ri]) {
                seen[ri] = true;
                which.push_back(ri);
            }
    } else {
        for (size_t ri = 0; ri < reports.size(); ++ri)
            which.push_back(ri);
    }
    const auto cancelled = [] {
        StatsResult c;
        c.cancelled = true;
        return c;
    };

    StatsResult out;
    Groups all;
    for (size_t ri : which) {
        if (!reports[ri] || !reports[ri]->hasLayout())
            continue;
        const int64_t offset = ri < options.offsets.size() ? options.offsets[ri] : 0;
        const bool colon = colonForDefaultDomain(*reports[ri], options);
        if (!options.perReport) {
            if (!collectAny(*reports[ri], kind, offset, options, all, colon, out.problems))
                return cancelled();
            continue;
        }
        Groups mine;
        if (!collectAny(*reports[ri], kind, offset, options, mine, colon, out.problems))
            return cancelled();
        std::vector<StatRow> rows;
        rows.reserve(mine.size());
        for (auto &[key, d] : mine) {
            rows.push_back(statRow(key, ri, d));
            auto &dst = all[key];
            if (dst.empty())
                dst = std::move(d);
            else
                dst.insert(dst.end(), d.begin(), d.end());
        }
        finishGroup(rows, kind);
        out.perReport.insert(out.perReport.end(), std::make_move_iterator(rows.begin()),
                             std::make_move_iterator(rows.end()));
    }
    if (isCancelled(options.cancel))
        return cancelled();
    out.overall.reserve(all.size());
    for (auto &[key, d] : all)
        out.overall.push_back(statRow(key, std::nullopt, d));
    finishGroup(out.overall, kind);
    return out;
}

std::vector<CompareRow> compareReports(std::span<const ReportPtr> reports, StatsKind kind)
{
    const StatsResult s = summarize(reports, kind);
    std::map<std::pair<std::string, std::string>, size_t> rowOf;
    std::vector<CompareRow> out;
    for (const StatRow &o : s.overall) {
        rowOf[{o.name, o.style}] = out.size();
        CompareRow row;
        row.name = o.name;
        row.style = o.style;
        for (size_t ri = 0; ri < reports.size(); ++ri) {
            StatRow empty;
            empty.name = o.name;
            empty.style = o.style;
            empty.report = ri;
            row.cells.push_back(std::move(empty));
        }
        out.push_back(std::move(row));
    }
    for (const StatRow &p : s.perReport)
        out[rowOf[{p.name, p.style}]].cells[*p.report] = p;
    for (CompareRow &row : out) {
        for (size_t ri = 0; ri < row.cells.size(); ++ri)
            if (row.cells[ri].count > 0 && (!row.slowest || row.cells[ri].totalNs > row.cells[*row.slowest].totalNs))
                row.slowest = ri;
    }
    return out;
}

namespace {

const char kKernelTimeKey = 0; // its address finds the totals among the store's derived data

std::shared_ptr<const std::vector<int64_t>> computeKernelTimes(const EventStore &store, const CancelToken *cancel)
{
    std::vector<int64_t> byName(store.names().size(), 0);
    std::vector<uint8_t> seen(store.names().size(), 0); // a name with zero total time keeps its row
    const bool ok =
        forEachKeyed(store, StatsKind::KernelSum, 0, std::nullopt, cancel, [&](uint8_t, uint64_t key, int64_t d) {
            byName[key] += d;
            seen[key] = 1;
        });
    if (!ok)
        return nullptr;
    for (size_t n = 0; n < byName.size(); ++n)
        if (!seen[n])
            byName[n] = -1;
    return std::make_shared<const std::vector<int64_t>>(std::move(byName));
}

} // namespace

std::shared_ptr<const std::vector<int64_t>> kernelTimeByName(const EventStore &store, const CancelToken *cancel)
{
    return std::static_pointer_cast<const std::vector<int64_t>>(store.derived(
        &kKernelTimeKey, [&]() -> std::shared_ptr<const void> { return computeKernelTimes(store, cancel); }));
}

std::optional<std::map<std::string, int64_t>> totalsByName(std::span<const ReportPtr> reports, StatsKind kind,
                                                           const CancelToken *cancel,
                                                           std::vector<std::string> *problems)
{
    std::map<std::string, int64_t> out;
    for (const ReportPtr &r : reports) {
        if (!hasEvents(*r)) { // opened from a digest without its events: the totals it carries
            std::string error;
            if (kind != StatsKind::KernelSum && kind != StatsKind::NvtxSum) {
                Groups none;
                collectSummary(*r, kind, 0, std::nullopt, none, error);
                if (problems)
                    problems->push_back(error);
                continue;
            }
            const auto summary = summaryOf(*r, kTraceSummary, error);
            if (!summary) { // adds nothing, and says why
                if (problems)
                    problems->push_back(error);
                continue;
            }
            for (const auto &[name, ns] : kind == StatsKind::KernelSum ? summary->kernelTotals : summary->rangeTotals)
                out[name] += ns;
            continue;
        }
        if (kind == StatsKind::KernelSum) { // kept with the store: a compare reads them again
            const auto times = kernelTimeByName(*r->store, cancel);
            if (!times)
                return std::nullopt;
            for (NameId n = 0; n < times->size(); ++n)
                if ((*times)[n] >= 0)
                    out[keyName(*r->store, kind, n)] += (*times)[n];
            continue;
        }
        std::unordered_map<uint64_t, int64_t> byKey;
        uint64_t lastKey = 0;
        int64_t *last = nullptr; // runs of one name are common: skip the hash then
        const bool ok = forEachKeyed(*r->store, kind, 0, std::nullopt, cancel, [&](uint8_t, uint64_t key, int64_t d) {
            if (!last || key != lastKey) {
                last = &byKey[key];
                lastKey = key;
            }
            *last += d;
        });
        if (!ok)
            return std::nullopt;
        for (const auto &[key, ns] : byKey)
            out[keyName(*r->store, kind, key)] += ns;
    }
    return out;
}

} // namespace ps::core::trace
