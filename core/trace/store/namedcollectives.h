#pragma once
// The collective records of a report's events (collectiverecord.h): its reader's (Kineto c10d
// args, HCCL ops, NCCL's NVTX payloads), or, when the reader recorded none (nsys without payloads,
// rocpd), one per kernel whose NCCL/RCCL name says it is a collective. Those are made on first use
// and kept with the store, not when the store is built: at 96 bytes each they were 3 bytes an
// event of every report's load and cache, needed only when collectives are matched.

#include "core/trace/store/collectiverecord.h"

#include <span>

namespace ps::core::trace {

class EventStore;

// Not from inside an EventStore::derived() make function: it holds one lock for every key.
std::span<const CollectiveRecord> collectivesOf(const EventStore &store);

} // namespace ps::core::trace
