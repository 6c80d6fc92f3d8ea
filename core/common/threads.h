#pragma once
// The one policy for how many worker threads a job uses when the user did not say, so that the
// loader, the matcher, the digest writer and the CLI agree (and a change of policy is one edit).

namespace ps::core {

enum class WorkKind {
    Compute,     // parsing, compressing, analysing: one thread per core
    MemoryBound, // walking records already in memory: a few, past which the bus is the limit
};

// Threads for `kind` on this machine, at least 1.
int defaultThreads(WorkKind kind = WorkKind::Compute);

// `requested` when the user gave one (> 0), else the default.
inline int threadsOr(int requested, WorkKind kind = WorkKind::Compute)
{
    return requested > 0 ? requested : defaultThreads(kind);
}

} // namespace ps::core
