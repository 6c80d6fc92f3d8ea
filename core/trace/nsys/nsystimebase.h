#pragma once
// Internal to the nsys reader: the steps between reading and merging that change timestamps.

#include "core/trace/nsys/nsysmetadata.h"
#include "core/trace/nsys/nsystables.h"

#include <vector>

namespace ps::core::trace {
class ReadOnlySqlite;
}

namespace ps::core::trace::nsys {

// A range never closed (pushed or started, then the capture ended) lasts, as in nsys stats,
// until the last NVTX timestamp of the file: max(max(start), max(end)) over NVTX_EVENTS.
void closeOpenRanges(const ReadOnlySqlite &db, std::vector<Chunk> &chunks);

// Puts the chunks on the session clock and sets meta.utcStartNs (spec 1.6), with a warning when
// the file has no UTC origin.
void applyTimeBase(const SessionClock &clock, std::vector<Chunk> &chunks, ReportMeta &meta);

// Clips the impossible ends of the report's events (eventtimes.h), after applyTimeBase, and
// adds the one warning naming each table with dropped rows or clipped ends.
void clipImpossibleTimes(const std::vector<Job> &jobs, std::vector<Chunk> &chunks, ReportMeta &meta);

} // namespace ps::core::trace::nsys
