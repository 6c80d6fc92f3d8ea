#include "core/analysis/phases/osrtwait.h"

#include "core/trace/read/reportsource.h"
#include "core/trace/store/report.h"

#include <algorithm>
#include <array>

namespace ps::core::analysis {

bool isWaitingCall(std::string_view name)
{
    static constexpr std::array<std::string_view, 22> kCalls = {"read",
                                                                "recv",
                                                                "recvfrom",
                                                                "recvmsg",
                                                                "poll",
                                                                "ppoll",
                                                                "select",
                                                                "pselect",
                                                                "epoll_wait",
                                                                "epoll_pwait",
                                                                "accept",
                                                                "accept4",
                                                                "pthread_cond_wait",
                                                                "pthread_cond_timedwait",
                                                                "pthread_mutex_lock",
                                                                "pthread_barrier_wait",
                                                                "sem_wait",
                                                                "sem_timedwait",
                                                                "sem_clockwait",
                                                                "waitpid",
                                                                "wait",
                                                                "msgrcv"};
    return std::find(kCalls.begin(), kCalls.end(), name) != kCalls.end();
}

int64_t osrtWaitNs(const trace::EventStore &store, trace::EventRef range, TimeWindow window)
{
    const trace::TrackKey &key = store.track(range.track).key();
    int64_t waited = 0;
    for (uint32_t t : store.tracksOfKind(trace::TrackKind::OsRuntime)) {
        const trace::Track &osrt = store.track(t);
        if (osrt.pid() != key.pid || osrt.key().id != key.id)
            continue; // another thread's calls: not this range's waiting
        const trace::IndexRange r = osrt.window(window.start, window.end);
        for (size_t i = r.first; i < r.last; ++i) {
            const int64_t s = std::max(osrt.start(i), window.start), e = std::min(osrt.end(i), window.end);
            // Nested calls (pthread_cond_wait over a futex) are on other levels: count the outer.
            if (e > s && osrt.level(i) == 0 && isWaitingCall(store.name(osrt.name(i))))
                waited += e - s;
        }
    }
    return waited;
}

std::map<std::pair<int64_t, std::string>, int64_t> osrtWaitsOf(const trace::Report &report,
                                                               const ReportPhaseCells &cells)
{
    std::map<std::pair<int64_t, std::string>, int64_t> waits;
    std::string error;
    const trace::EventStore *store = trace::hasEvents(report) ? trace::eventsOf(report, error) : nullptr;
    if (!store || store->count(trace::TrackKind::OsRuntime) == 0)
        return waits;
    for (const PhaseOccurrence &o : cells.occurrences)
        waits[{o.step, o.phase}] += osrtWaitNs(*store, o.range, o.window);
    return waits;
}

} // namespace ps::core::analysis
