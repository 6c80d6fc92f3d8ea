#pragma once
// The files verl's in-process profilers and its nsys relocation write, named as each release
// names them (../shared/spec/profiling-config-2026.md V5, V3, V6):
//   0.5-0.7.0  <save>/<scope>/prof_rank-<r>.json.gz
//   0.7.1-0.8  <save>/<scope>/prof_rank-<r>_<pid>_<timestamp>.json.gz
//   0.9        <save>/<scope>/<prefix>_<scope>_rank<r>-of-<W>[_tp-pp-dp-cp]_pid<pid>_<ts>[_cycle<k>].json.gz
//   main <save>/<prefix>_<scope>_step<S>_rank<r>-of-<W>[_tp-pp-dp-cp]_pid<pid>_<ts>[_part<k>|_mb<a>[-<b>]].json.gz
// Run-time parts are <PID>, <timestamp>, <hostname>, <RID>.

#include "core/profiling/profileplan.h"

#include <optional>
#include <string>
#include <vector>

namespace ps::core::profiling {

// verl's _sanitize_name_part: runs of [^0-9A-Za-z.=+-] become '-', then '-' trimmed at both ends.
std::string verlSanitizeLabel(const std::string &text);

struct TorchTraceName
{
    std::string workerRole;        // save_file_prefix: "actor_rollout_ref", "value_model"; "" = none
    std::string scope;             // "train"/"e2e" window or the discrete stage label
    std::optional<long long> step; // main: the RL step the window starts at
    long long rank = 0;
    std::optional<long long> worldSize;
    std::string parallel; // "tp0-pp0-dp1-cp0" (Megatron), "" otherwise
    std::string pid = "<PID>";
    std::string timestamp = "<timestamp>";
    std::string suffix; // "_part1", "_mb0-1", "_cycle1" (already formatted)
};

// build_trace_basename (0.9 / main), without directory and extension.
std::string verlTorchTraceBasename(VerlVersion version, const TorchTraceName &name);
// The full path of one torch trace for `version` (the table above).
std::string verlTorchTracePath(VerlVersion version, const std::string &savePath, const TorchTraceName &name);

// relocate_results (main): `[<role>_]<host>_worker_process_<pid>[.<n>].nsys-rep` in save_path.
std::string verlRelocatedNsysPath(const std::string &savePath, const std::string &workerRole,
                                  const std::string &host = "<hostname>", const std::string &pid = "<PID>",
                                  const std::string &rangeId = "<RID>");

// The mini-batch windows [first, last] a scheduled discrete actor_update writes (main: _mb<a>-<b>),
// for `miniBatches` update mini-batches per step.
std::vector<std::pair<long long, long long>> verlScheduleWindows(const VerlRoleProfiler::TorchSchedule &s,
                                                                 long long miniBatches);

// Every file one worker rank writes with an in-process tool (torch, npu, torch_memory,
// precision_debugger) for version p.version; empty when it writes none.
std::vector<std::string> verlInProcessOutputs(const VerlProfiling &p, long long rank, long long miniBatches);

// The stage label verl gives an annotated worker call ("update_actor" -> "actor_update").
std::string verlStageLabel(const std::string &call);

// The worker role string verl's hybrid worker is created with ("actor_rollout_ref" when the
// reference model lives in it, else "actor_rollout").
std::string verlHybridWorkerRole(const VerlProfiling &p);

} // namespace ps::core::profiling
