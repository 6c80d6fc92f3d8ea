#pragma once
// Waiting a rank did in OS runtime calls, for a phase without matched collectives: CPU ranks that
// synchronize through the OS (a barrier over a socket or pipe, a futex, a condition variable)
// are blocked in one of these calls while they wait for the others, and nsys's OS runtime trace
// (`-t osrt`) records each call longer than its threshold.
//
// The calls that count as waiting for someone else: read, recv, recvfrom, recvmsg, poll, ppoll,
// select, pselect, epoll_wait, epoll_pwait, accept, accept4, pthread_cond_wait,
// pthread_cond_timedwait, pthread_mutex_lock, pthread_barrier_wait, sem_wait, sem_timedwait,
// sem_clockwait, waitpid, wait, msgrcv. Not sleeps (nanosleep, usleep, sleep): a rank that
// sleeps is pacing itself, not waiting for another.

#include "core/analysis/phases/phases.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace ps::core::analysis {

bool isWaitingCall(std::string_view name);

// Time the thread of `range` spent in waiting calls inside `window` (clipped to it).
int64_t osrtWaitNs(const trace::EventStore &store, trace::EventRef range, TimeWindow window);

// Per (step, phase) of `cells` (made from the events: its occurrences), the summed OS runtime
// wait of its ranges; empty for a report without events or without an OS runtime trace.
std::map<std::pair<int64_t, std::string>, int64_t> osrtWaitsOf(const trace::Report &report,
                                                               const ReportPhaseCells &cells);

} // namespace ps::core::analysis
