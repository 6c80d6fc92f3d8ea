#pragma once
// Touches everything a view or the stats would touch on a store, so that a malformed input that
// slipped through shows up as a sanitizer report here rather than in the GUI.

#include "core/trace/alignment.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/tracestats.h"

#include <cstdint>

// A digest opened without its events has a layout and no store: its rows, labels and extents are
// what the views read of it (the outline's summaries are the harness's own business).
inline uint64_t exerciseLayout(const ps::core::trace::Report &report)
{
    using namespace ps::core::trace;
    const EventStore &layout = report.layout();
    uint64_t sink = extentOf(report).events;
    for (uint32_t ti = 0; ti < layout.tracks().size(); ++ti) {
        sink += layout.name(layout.track(ti).label()).size();
        sink += uint64_t(trackExtentOf(report, ti).lastEnd);
    }
    return sink;
}

inline uint64_t exerciseStore(const ps::core::trace::ReportPtr &report)
{
    using namespace ps::core::trace;
    if (!report->store)
        return report->hasLayout() ? exerciseLayout(*report) : 0;
    const EventStore &s = *report->store;
    uint64_t sink = 0;
    for (uint32_t ti = 0; ti < s.tracks().size(); ++ti) {
        const Track &t = s.track(ti);
        sink += s.name(t.label()).size();
        for (size_t i = 0; i < t.size(); ++i) {
            sink += uint64_t(t.end(i)) + t.level(i) + t.bytes(i) + s.name(t.name(i)).size();
            if (t.crossThreadEndTid(i))
                sink += 1;
        }
        const IndexRange w = t.window(t.firstStart(), t.lastEnd() / 2 + t.firstStart() / 2);
        sink += w.size();
        if (!t.empty()) {
            if (isGpuKind(t.kind()))
                sink += s.apiCallFor({ti, 0}).has_value();
            if (t.kind() == TrackKind::CudaApi)
                sink += s.gpuWorkFor({ti, 0}).size();
            if (t.kind() == TrackKind::Kernel)
                sink += s.launchConfigOf({ti, 0}).has_value() + s.shortNameOf(t.name(0));
        }
    }
    const ReportPtr arr[] = {report};
    sink += summarize(arr, StatsKind::NvtxSum).overall.size();
    sink += compareReports(arr, StatsKind::KernelSum).size();
    AlignSpec spec;
    spec.mode = AlignMode::Range;
    spec.anchor = RangeAnchor{std::string(s.name(1)), 1};
    sink += alignReports(arr, spec).offsets.size();
    return sink;
}
