#pragma once
// Level-of-detail pyramid of one lane (one level of one track, or one device's busy time): the
// lane's events folded into runs at a ladder of widths, as the timeline folds them into pixel
// columns, so that a lane can be drawn at any zoom down to the pyramid's finest width without
// its events. Digests carry one per lane (docs/digest-format.md, section PYRD).
//
// A level of width w is the lane folded at w: an event at least w long stays a run of its own;
// narrow events whose gaps are under w fold into one run with their count and busy time, until
// the run is w long (so a level places busy time to within w). Levels
// go from fine to coarse, each with at most half the runs of the one before (a width that folds
// less is not stored: the level below it serves, folded further when drawn), so that all levels
// together hold at most twice the finest. The finest level stored is the first with at most
// max(events / 16, 128) runs (found by bisection with counting passes, so that building costs a
// few passes over the events), or the last whose width is at most the lane's span / 2048 when
// that is finer, so that a whole-range view up to 2048 pixels wide never needs the events.

#include "core/trace/store/tracetypes.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

struct LodRun
{
    int64_t start = 0;
    int64_t end = 0;
    int64_t busy = 0;      // ns covered by the run's events
    uint32_t count = 0;    // events folded into the run
    NameId name = kNoName; // the first event's name
};

struct LodLevel
{
    int64_t width = 1; // fold width in ns (a power of two)
    std::vector<LodRun> runs;
};

struct LodPyramid
{
    std::vector<LodLevel> levels; // ascending width
    size_t events = 0;            // events of the lane

    bool empty() const { return levels.empty(); }
    // The coarsest level whose width is at most `nsPerPixel`; null when even the finest is
    // coarser (the view must draw from the events to be exact).
    const LodLevel *levelFor(double nsPerPixel) const;
    // The finest level (null when empty).
    const LodLevel *finest() const { return levels.empty() ? nullptr : &levels.front(); }
};

// Builds a pyramid from a lane's events, given in start order without overlaps (the events of
// one track level, or a device's busy intervals).
class LodPyramidBuilder
{
public:
    LodPyramidBuilder(int64_t first, int64_t last, size_t events);
    void add(int64_t start, int64_t end, NameId name);
    LodPyramid finish();

private:
    int64_t m_width0 = 1;
    int64_t m_span = 1;
    size_t m_events = 0;
    std::vector<LodRun> m_runs; // folded at m_width0
};

// Binary form of a list of pyramids (the PYRD section before compression). Little-endian.
void appendPyramid(std::string &out, const LodPyramid &p);
// Reads one pyramid at `pos`, advancing it; false with `error` when the bytes are not one.
bool readPyramid(std::string_view bytes, size_t &pos, LodPyramid &p, std::string &error);

} // namespace ps::core::trace
