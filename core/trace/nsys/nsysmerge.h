#pragma once
// Internal to the nsys reader: moves the chunks, in table and rowid order, into the builder's
// tracks, naming copies and syncs, resolving NVTX scopes and the processes seen.

#include "core/trace/nsys/nsysmetadata.h"
#include "core/trace/nsys/nsysnccl.h"
#include "core/trace/nsys/nsystables.h"

#include <vector>

namespace ps::core::trace::nsys {

// Releases each chunk once merged; lists the processes with events in meta.pids. With NCCL calls
// (nsysnccl.h), every NCCL kernel gets its collective record here: its call's, else by name.
void mergeChunks(const std::vector<Job> &jobs, std::vector<Chunk> &chunks, const NameTables &names, StoreBuilder &b,
                 ReportMeta &meta, const NcclLaunches &nccl = {});

} // namespace ps::core::trace::nsys
