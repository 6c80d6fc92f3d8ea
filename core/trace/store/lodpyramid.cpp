#include "core/trace/store/lodpyramid.h"

#include "core/common/bytefields.h"

#include <algorithm>
#include <bit>

namespace ps::core::trace {

namespace {

constexpr size_t kMinKeptRuns = 128;
constexpr int64_t kWholeRangePixels = 2048;
// The first fold is this many widths per span or finer: deep enough that no lane merges there
// that would not merge when drawn.
constexpr int kFirstLevelBits = 24;

// Whether `next` folds into `run` at `width`: a narrow event (or run) close behind a run that is
// still narrower than the width. A run stops growing at the width, so that a level's runs keep
// where their busy time lies to within its width (a utilization lane spreads a run's busy time
// evenly over it) and a single longer event stays a run of its own.
bool folds(const LodRun &run, const LodRun &next, int64_t width)
{
    return run.end - run.start < width && next.end - next.start < width && next.start - run.end < width;
}

void absorb(LodRun &run, const LodRun &next)
{
    run.end = std::max(run.end, next.end);
    run.busy += next.busy;
    run.count += next.count;
}

} // namespace

const LodLevel *LodPyramid::levelFor(double nsPerPixel) const
{
    const LodLevel *best = nullptr;
    for (const LodLevel &l : levels) {
        if (double(l.width) > nsPerPixel)
            break;
        best = &l;
    }
    return best;
}

LodPyramidBuilder::LodPyramidBuilder(int64_t first, int64_t last, size_t events)
    : m_span(std::max<int64_t>(1, last - first)), m_events(events)
{
    const int spanBits = std::bit_width(uint64_t(m_span));
    m_width0 = int64_t(1) << std::max(0, spanBits - kFirstLevelBits);
    m_runs.reserve(events);
}

void LodPyramidBuilder::add(int64_t start, int64_t end, NameId name)
{
    const LodRun r{start, std::max(start, end), std::max<int64_t>(0, end - start), 1, name};
    if (!m_runs.empty() && folds(m_runs.back(), r, m_width0))
        absorb(m_runs.back(), r);
    else
        m_runs.push_back(r);
}

namespace {

// Runs of `runs` folded again at `width` (the step from one level to the next).
std::vector<LodRun> foldRuns(std::span<const LodRun> runs, int64_t width)
{
    std::vector<LodRun> out;
    out.reserve(runs.size() / 2 + 1);
    for (const LodRun &r : runs) {
        if (!out.empty() && folds(out.back(), r, width))
            absorb(out.back(), r);
        else
            out.push_back(r);
    }
    return out;
}

// How many runs folding `runs` at `width` makes (foldRuns() without building them).
size_t foldedCount(std::span<const LodRun> runs, int64_t width)
{
    if (runs.empty())
        return 0;
    size_t n = 1;
    LodRun current = runs.front();
    for (size_t i = 1; i < runs.size(); ++i) {
        if (folds(current, runs[i], width)) {
            absorb(current, runs[i]);
        } else {
            current = runs[i];
            ++n;
        }
    }
    return n;
}

// The finest width to keep: the first (power of two from `width0`) at which the runs fold to at
// most `keepRuns`, found by bisection over the exponents with counting passes only; or the last
// at most `wholeRangeWidth` when that is finer.
int64_t firstKeptWidth(std::span<const LodRun> runs, int64_t width0, size_t keepRuns, int64_t wholeRangeWidth,
                       int64_t span)
{
    int lo = 0, hi = 0;
    // width <= 2 * span, never doubling the span (it may be near 2^63 on hostile times), and
    // widths that stay int64.
    while (hi < 62 && (width0 << hi) <= (int64_t(1) << 61) && (width0 << hi) - span <= span)
        ++hi;
    while (lo < hi) { // first exponent whose count is small enough (counts fall as widths grow)
        const int mid = (lo + hi) / 2;
        if (foldedCount(runs, width0 << mid) <= keepRuns)
            hi = mid;
        else
            lo = mid + 1;
    }
    int64_t whole = width0; // the last power of two from width0 at most wholeRangeWidth
    while (2 * whole <= wholeRangeWidth)
        whole *= 2;
    return std::min(width0 << lo, whole);
}

} // namespace

LodPyramid LodPyramidBuilder::finish()
{
    LodPyramid p;
    p.events = m_events;
    if (m_runs.empty())
        return p;
    const size_t keepRuns = std::max(m_events / 16, kMinKeptRuns);
    const int64_t wholeRangeWidth = m_span / kWholeRangePixels;
    int64_t w = firstKeptWidth(m_runs, m_width0, keepRuns, wholeRangeWidth, m_span);
    p.levels.push_back({w, w == m_width0 ? std::move(m_runs) : foldRuns(m_runs, w)});
    m_runs = {};
    while (p.levels.back().runs.size() > 1 && w <= (int64_t(1) << 61) && w - m_span <= m_span) {
        w *= 2;
        std::vector<LodRun> next = foldRuns(p.levels.back().runs, w);
        if (2 * next.size() <= p.levels.back().runs.size())
            p.levels.push_back({w, std::move(next)});
    }
    return p;
}

void appendPyramid(std::string &out, const LodPyramid &p)
{
    appendField(out, uint64_t(p.events));
    appendField(out, uint64_t(p.levels.size()));
    for (const LodLevel &l : p.levels) {
        appendField(out, l.width);
        appendField(out, uint64_t(l.runs.size()));
        int64_t previous = 0;
        // Column by column, starts as deltas: what zstd compresses best.
        for (const LodRun &r : l.runs) {
            appendField(out, int64_t(uint64_t(r.start) - uint64_t(previous)));
            previous = r.start;
        }
        for (const LodRun &r : l.runs)
            appendField(out, r.end - r.start);
        for (const LodRun &r : l.runs)
            appendField(out, r.busy);
        for (const LodRun &r : l.runs)
            appendField(out, r.count);
        for (const LodRun &r : l.runs)
            appendField(out, r.name);
    }
}

namespace {
constexpr size_t kRunBytes = 3 * sizeof(int64_t) + 2 * sizeof(uint32_t);

// Adds as the writer subtracted, wrapping (hostile bytes must not overflow a signed add).
int64_t wrappingAdd(int64_t a, int64_t b)
{
    return int64_t(uint64_t(a) + uint64_t(b));
}

bool readRuns(std::string_view bytes, size_t &pos, std::vector<LodRun> &runs)
{
    int64_t previous = 0;
    for (LodRun &r : runs) {
        takeField(bytes, pos, r.start);
        r.start = wrappingAdd(r.start, previous);
        previous = r.start;
    }
    bool lengthsOk = true;
    for (LodRun &r : runs) {
        int64_t length = 0;
        takeField(bytes, pos, length);
        lengthsOk = lengthsOk && length >= 0;
        r.end = wrappingAdd(r.start, length);
        lengthsOk = lengthsOk && r.end >= r.start;
    }
    for (LodRun &r : runs)
        takeField(bytes, pos, r.busy);
    for (LodRun &r : runs)
        takeField(bytes, pos, r.count);
    for (LodRun &r : runs)
        takeField(bytes, pos, r.name);
    return lengthsOk &&
           std::is_sorted(runs.begin(), runs.end(), [](const LodRun &a, const LodRun &b) { return a.start < b.start; });
}
} // namespace

bool readPyramid(std::string_view bytes, size_t &pos, LodPyramid &p, std::string &error)
{
    uint64_t events = 0, levels = 0;
    if (!takeField(bytes, pos, events) || !takeField(bytes, pos, levels) || levels > 64) {
        error = "a pyramid's header is cut short or out of range";
        return false;
    }
    p.events = size_t(events);
    p.levels.resize(size_t(levels));
    int64_t previousWidth = 0;
    for (LodLevel &l : p.levels) {
        uint64_t runs = 0;
        if (!takeField(bytes, pos, l.width) || !takeField(bytes, pos, runs) || l.width <= previousWidth ||
            runs > (bytes.size() - pos) / kRunBytes) {
            error = "a pyramid level is cut short or out of order";
            return false;
        }
        previousWidth = l.width;
        l.runs.resize(size_t(runs));
        if (!readRuns(bytes, pos, l.runs)) {
            error = "a pyramid level's runs are out of order";
            return false;
        }
    }
    return true;
}

} // namespace ps::core::trace
