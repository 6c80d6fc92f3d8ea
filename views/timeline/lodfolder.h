#pragma once
// Level of detail: turns the events of one lane (one level of one track) in the visible window
// into at most a few marks per pixel column. Events at least `minPx` wide become one mark each;
// runs of narrower events that touch (gaps under one pixel) fold into one mark carrying their
// count. The walk binary-searches the window's first event, then jumps a whole pixel column at
// a time with a galloping search on start, so a frame costs O(pixels x log events), never
// O(events). Relies on the engine's invariant that events of one level do not overlap (so their
// ends are sorted too).

#include "views/scene/timemapping.h"

#include "core/trace/store/lodpyramid.h"
#include "core/trace/store/track.h"

#include <span>
#include <vector>

namespace ps::views {

// One lane: a track's events of one level. `indices` lists them (ascending); empty means every
// event of the track (tracks with a single level).
struct LaneView
{
    const core::trace::Track *track = nullptr;
    std::span<const uint32_t> indices;

    size_t size() const { return indices.empty() ? track->size() : indices.size(); }
    uint32_t event(size_t k) const { return indices.empty() ? uint32_t(k) : indices[k]; }
    int64_t start(size_t k) const { return track->start(event(k)); }
    int64_t end(size_t k) const { return track->end(event(k)); }
    // Positions [first, last) of the lane whose events may overlap [t0, t1) (report clock).
    std::pair<size_t, size_t> window(int64_t t0, int64_t t1) const;
};

struct LodMark
{
    float x0 = 0;                                    // pixels, clamped to a little outside [0, width]
    float x1 = 0;                                    // x1 > x0
    uint32_t index = 0;                              // the (first) event, index into the track (0 for a pyramid's mark)
    uint32_t count = 1;                              // events folded into this mark; 1 = a single event
    core::trace::NameId name = core::trace::kNoName; // the (first) event's name
};

inline constexpr double kFoldPx = 1.0;

// Appends the marks of `lane` under `mapping` to `out` (left to right). `offset` maps the
// report's clock to the shared axis.
void foldLane(const LaneView &lane, const TimeMapping &mapping, int64_t offset, std::vector<LodMark> &out,
              double minPx = kFoldPx);

// Appends the marks of a pyramid level (core/trace/store/lodpyramid.h) in the window, its runs folded
// further where they are narrower than a pixel, as foldLane folds events.
void foldPyramidLevel(const core::trace::LodLevel &level, const TimeMapping &mapping, int64_t offset,
                      std::vector<LodMark> &out);

// The event of `lane` under pixel x: one containing the time at x, else the nearest within
// `slopPx` pixels (so that very narrow events can be hit). Returns the track index or -1.
int64_t hitTestLane(const LaneView &lane, const TimeMapping &mapping, int64_t offset, double x, double slopPx = 2.0);

// The mark under pixel x (marks sorted by x0, as foldLane emits them), within `slopPx`; -1 if none.
int markAt(std::span<const LodMark> marks, double x, double slopPx = 1.0);

} // namespace ps::views
