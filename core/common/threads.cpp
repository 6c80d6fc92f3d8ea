#include "core/common/threads.h"

#include <algorithm>
#include <thread>

namespace ps::core {

int defaultThreads(WorkKind kind)
{
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    // Beyond four threads, reading collective records gained nothing on the benchmarks
    // (bench_collectives): the memory bus, not the cores, bounds them.
    return kind == WorkKind::MemoryBound ? std::min(cores, 4) : cores;
}

} // namespace ps::core
