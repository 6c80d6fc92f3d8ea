#pragma once
// How every worker of a run will launch under profiling: the wrapped argv and the command line
// exactly as the framework renders it, the environment profiling adds, the capture ranges it
// will record and the files it will write, per node. Workers that are not wrapped are listed
// too, with the reason.

#include "core/profiling/profileplan.h"

#include <string>
#include <utility>
#include <vector>

namespace ps::core::profiling {

struct CaptureRange
{
    std::string label;            // "step 3", "steps 1-2", "step 1: update_actor"
    std::vector<long long> steps; // training steps inside (framework numbering)
};

// A shell command the framework runs itself after profiling (verl main's finish_hook_cmd).
struct HookRun
{
    std::string when;                                     // "after step 5"
    std::vector<std::string> argv;                        // {"/bin/sh", "-c", CMD}
    std::string command;                                  // argv shell-quoted; bash splits it back
    std::vector<std::pair<std::string, std::string>> env; // added for the command, in order
};

struct WorkerLaunch
{
    std::string name;  // Ray worker name: "ActorGroup:0", "TaskRunner", "global_pool:3"
    std::string group; // "ActorGroup", "Env" (channel), "global_pool", "TaskRunner"
    long long rank = 0;
    long long node = 0;                                   // node index the worker runs on (-1: any node, Ray decides)
    std::vector<std::string> roles;                       // verl roles hosted by the process
    bool wrapped = false;                                 // runs under a profiler command
    std::string reason;                                   // why not wrapped / why it records nothing
    std::vector<std::string> argv;                        // the wrapped launch; bash splits `command` back into it
    std::string command;                                  // as the framework renders it (RLinf: shlex; Ray: plain join)
    std::vector<std::pair<std::string, std::string>> env; // added by profiling, in order
    std::vector<CaptureRange> captureRanges;
    std::vector<std::string> outputs; // paths on `node`; <PID>, <RID>, <hostname>... mark run-time parts
    std::vector<HookRun> hooks;       // commands run by the worker after profiling
};

struct LaunchPlan
{
    Framework framework = Framework::Unknown;
    std::string backend;
    std::vector<std::string> driverArgv; // the driver (RLinf) / trainer (verl) launch
    std::string driverCommand;
    std::vector<WorkerLaunch> workers;
    std::vector<std::string> notes;
    // Where to collect reports: node index -> folders.
    std::vector<std::pair<long long, std::string>> collect;
};

} // namespace ps::core::profiling
