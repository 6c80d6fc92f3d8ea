#include "core/trace/alignment.h"

#include "core/trace/rangeoccurrences.h"
#include "core/trace/read/reportsource.h"

#include <algorithm>
#include <charconv>

namespace ps::core::trace {

std::optional<AlignSpec> parseAlignSpec(std::string_view text, std::string &error)
{
    AlignSpec spec;
    if (text == "utc" || text.empty()) {
        spec.mode = AlignMode::Utc;
        return spec;
    }
    if (text == "start") {
        spec.mode = AlignMode::Start;
        return spec;
    }
    if (text == "manual") {
        spec.mode = AlignMode::Manual;
        return spec;
    }
    constexpr std::string_view prefix = "range:";
    if (text.substr(0, prefix.size()) != prefix) {
        error = "unknown alignment '" + std::string(text) + "'; expected utc, start, manual or range:NAME[#K]";
        return std::nullopt;
    }
    std::string_view rest = text.substr(prefix.size());
    RangeAnchor anchor;
    if (const size_t hash = rest.rfind('#'); hash != std::string_view::npos) {
        const std::string_view k = rest.substr(hash + 1);
        int v = 0;
        auto [p, ec] = std::from_chars(k.data(), k.data() + k.size(), v);
        if (ec != std::errc() || p != k.data() + k.size() || v < 1) {
            error = "bad occurrence '#" + std::string(k) + "' in '" + std::string(text) +
                    "'; expected a positive integer K as in range:NAME#K";
            return std::nullopt;
        }
        anchor.occurrence = v;
        rest = rest.substr(0, hash);
    }
    if (rest.empty()) {
        error = "empty range name in '" + std::string(text) + "'; expected range:NAME[#K]";
        return std::nullopt;
    }
    anchor.name = std::string(rest);
    spec.mode = AlignMode::Range;
    spec.anchor = anchor;
    return spec;
}

std::string alignSpecText(const AlignSpec &spec)
{
    switch (spec.mode) {
    case AlignMode::Utc:
        return "utc";
    case AlignMode::Start:
        return "start";
    case AlignMode::Manual:
        return "manual";
    case AlignMode::Range:
        return "range:" + (spec.anchor ? spec.anchor->name + "#" + std::to_string(spec.anchor->occurrence) : "");
    }
    return "utc";
}

namespace {

// Where each report goes when aligned at its first event, and by UTC when every report has an
// origin; the reports without one, for warnings.
struct BaseOffsets
{
    std::vector<int64_t> start, utc;
    std::vector<std::string> noUtc;
    std::optional<int64_t> minUtc;
    bool allUtc = false;

    const std::vector<int64_t> &fallback() const { return allUtc ? utc : start; }
    std::string noUtcWarning(const std::string &what) const
    {
        std::string w = std::to_string(noUtc.size()) + " report(s) have no UTC origin (";
        for (size_t i = 0; i < noUtc.size(); ++i)
            w += (i ? ", " : "") + noUtc[i];
        return w + "): " + what;
    }
};

BaseOffsets baseOffsets(std::span<const ReportPtr> reports)
{
    const size_t n = reports.size();
    BaseOffsets b;
    b.start.resize(n);
    b.utc.resize(n);
    for (size_t i = 0; i < n; ++i) {
        b.start[i] = -extentOf(*reports[i]).firstStart;
        if (const auto &u = reports[i]->meta.utcStartNs)
            b.minUtc = b.minUtc ? std::min(*b.minUtc, *u) : *u;
        else
            b.noUtc.push_back(reports[i]->path);
    }
    b.allUtc = b.noUtc.empty() && n > 0;
    if (b.allUtc)
        for (size_t i = 0; i < n; ++i)
            b.utc[i] = *reports[i]->meta.utcStartNs - *b.minUtc;
    return b;
}

using Anchors = std::vector<std::optional<std::pair<int64_t, int64_t>>>;

// Each anchored report at its anchor's start; the others where the fallback puts them relative
// to the first anchored report, with a warning naming them.
void alignOnRange(std::span<const ReportPtr> reports, const AlignSpec &spec, const Anchors &anchors,
                  const BaseOffsets &base, AlignResult &r)
{
    const size_t n = reports.size();
    std::optional<size_t> ref;
    for (size_t i = 0; i < n; ++i)
        if (anchors[i]) {
            r.offsets[i] = -anchors[i]->first;
            if (!ref)
                ref = i;
        }
    const std::vector<int64_t> &fallback = base.fallback();
    std::vector<std::string> missing;
    for (size_t i = 0; i < n; ++i) {
        if (anchors[i])
            continue;
        missing.push_back(reports[i]->path);
        r.offsets[i] = ref ? fallback[i] - fallback[*ref] + r.offsets[*ref] : fallback[i];
    }
    if (missing.empty())
        return;
    if (missing.size() == n) { // no report has it: every one was placed by the fallback
        r.used = base.allUtc ? AlignMode::Utc : AlignMode::Start;
        if (base.allUtc) // as aligned by UTC: axis 0 is the earliest report's origin
            r.utcOriginNs = base.minUtc;
    }
    std::string w = "range '" + spec.anchor->name + "' occurrence #" + std::to_string(spec.anchor->occurrence) +
                    " not found in " + std::to_string(missing.size()) + " report(s) (";
    for (size_t i = 0; i < missing.size(); ++i)
        w += (i ? ", " : "") + missing[i];
    w += std::string("): placed by ") + (base.allUtc ? "UTC" : "first event");
    r.warnings.push_back(w);
    if (!base.allUtc && !base.noUtc.empty())
        r.warnings.push_back(base.noUtcWarning("they cannot be placed by UTC"));
}

// Residual spread of the anchor across reports (clock skew after alignment).
std::optional<int64_t> anchorResidual(const AlignSpec &spec, const Anchors &anchors,
                                      const std::vector<int64_t> &offsets)
{
    std::vector<int64_t> t;
    for (size_t i = 0; i < anchors.size(); ++i)
        if (anchors[i])
            t.push_back((spec.mode == AlignMode::Range ? anchors[i]->second : anchors[i]->first) + offsets[i]);
    if (t.size() < 2)
        return std::nullopt;
    auto [lo, hi] = std::minmax_element(t.begin(), t.end());
    return *hi - *lo;
}

} // namespace

AlignResult alignReports(std::span<const ReportPtr> reports, const AlignSpec &spec, const AnchorFinder &find)
{
    AlignResult r;
    const size_t n = reports.size();
    r.offsets.assign(n, 0);
    r.used = spec.mode;
    const BaseOffsets base = baseOffsets(reports);
    Anchors anchors(n);
    if (spec.anchor)
        for (size_t i = 0; i < n; ++i)
            anchors[i] = find ? find(*reports[i], *spec.anchor)
                              : rangeOccurrenceOf(*reports[i], spec.anchor->name, spec.anchor->occurrence);

    switch (spec.mode) {
    case AlignMode::Utc:
        if (base.allUtc) {
            r.offsets = base.utc;
            r.utcOriginNs = base.minUtc;
        } else {
            r.used = AlignMode::Start;
            r.offsets = base.start;
            r.warnings.push_back(base.noUtcWarning("aligned every report at its first event instead"));
        }
        break;
    case AlignMode::Start:
        r.offsets = base.start;
        break;
    case AlignMode::Manual:
        break;
    case AlignMode::Range:
        alignOnRange(reports, spec, anchors, base, r);
        break;
    }
    for (size_t i = 0; i < n && i < spec.manualOffsets.size(); ++i)
        r.offsets[i] += spec.manualOffsets[i];
    if (spec.anchor)
        if (const std::optional<int64_t> residual = anchorResidual(spec, anchors, r.offsets))
            r.residualNs = *residual;
    return r;
}

} // namespace ps::core::trace
