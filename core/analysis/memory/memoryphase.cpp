#include "core/analysis/memory/memoryphase.h"

#include "core/analysis/phases/phases.h"
#include "core/trace/formats/torchmemoryreader.h"
#include "core/trace/read/reportsource.h"

#include <string_view>

namespace ps::core::analysis {

namespace {

// Ranges that span everything and name no phase: PyTorch's step and profiler spans.
bool spansEverything(std::string_view label)
{
    return label.starts_with("ProfilerStep#") || label.starts_with("PyTorch Profiler");
}

// The longest annotation range over `t` (own clock) that is not a whole-step span.
std::optional<std::string> outermostRange(const trace::EventStore &store, int64_t t)
{
    std::optional<std::string> best;
    int64_t bestLength = -1;
    for (const trace::TrackKind kind : {trace::TrackKind::NvtxPushPop, trace::TrackKind::NvtxStartEnd})
        for (const uint32_t ti : store.tracksOfKind(kind)) {
            const trace::Track &track = store.track(ti);
            for (size_t i = 0; i < track.size() && track.start(i) <= t; ++i) {
                const std::string_view label = store.name(track.name(i));
                if (track.end(i) <= t || track.duration(i) <= bestLength || spansEverything(label))
                    continue;
                bestLength = track.duration(i);
                best = std::string(label);
            }
        }
    return best;
}

} // namespace

std::vector<trace::ReportPtr> sameRankTraces(std::optional<int> rank, std::optional<int> step,
                                             std::span<const trace::ReportPtr> reports)
{
    std::vector<trace::ReportPtr> out;
    if (!rank)
        return out;
    for (const trace::ReportPtr &r : reports) {
        if (!r || !r->store || r->meta.format == trace::kTorchMemoryFormat || r->identity.rank != rank)
            continue;
        if (step && r->identity.step && *step != *r->identity.step)
            continue;
        out.push_back(r);
    }
    return out;
}

std::optional<MemoryPhase> phaseAtUtc(int64_t utcNs, std::span<const trace::ReportPtr> traces,
                                      const PhaseMapping &mapping)
{
    for (const trace::ReportPtr &r : traces) {
        std::string noEvents; // a digest's outline: its ranges are not here, so it places nothing
        const trace::EventStore *events = trace::eventsOf(*r, noEvents);
        if (!r->meta.utcStartNs || !events)
            continue;
        const int64_t t = utcNs - *r->meta.utcStartNs; // the trace's own clock
        for (const PhaseOccurrence &p :
             findPhases(*events, mapping, r->identity.step, nullptr, r->identity.stepIsCaptureIndex))
            if (p.window.start <= t && t < p.window.end) {
                const trace::Track &track = events->track(p.range.track);
                return MemoryPhase{p.phase, true, p.step, std::string(events->name(track.name(p.range.index))),
                                   r->path};
            }
        if (auto label = outermostRange(*events, t))
            return MemoryPhase{*label, false, std::nullopt, *label, r->path};
    }
    return std::nullopt;
}

} // namespace ps::core::analysis
