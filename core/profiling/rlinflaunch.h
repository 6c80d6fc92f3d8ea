#pragma once
// RLinf launch plans: nsys (A5) and rocprof-sys (A7) wrapping of each profiled worker's Python
// interpreter, as RLinf renders Ray's py_executable, and the driver line.

#include "core/profiling/launchoptions.h"
#include "core/profiling/launchplan.h"
#include "core/profiling/rlinfschema.h"

#include <string>
#include <vector>

namespace ps::core::profiling {

// NsightConfig.to_cli_tokens + the interpreter (A5) for one worker.
std::vector<std::string> rlinfNsysArgv(const RLinfProfiling &p, const std::string &workerName,
                                       const std::string &python, const std::string &tempDir);
// RocprofSysConfig.to_cli_tokens + "--" + interpreter (A7), and the env it adds.
std::vector<std::string> rlinfRocprofArgv(const RLinfProfiling &p, const std::string &python);
std::vector<std::pair<std::string, std::string>> rlinfRocprofEnv(const RLinfProfiling &p, const std::string &workerName,
                                                                 const std::string &tempDir);
// <output_dir>/rlinf_profile_<worker name with [^A-Za-z0-9._-] -> _>_%p (A6).
std::string rlinfOutputPrefix(const RLinfProfiling &p, const std::string &workerName, const std::string &tempDir);

LaunchPlan buildRLinfLaunchPlan(const RLinfProfiling &p, const RLinfTopology &topology,
                                const ClusterDescription &cluster, const LaunchOptions &options,
                                const std::string &configName, const std::vector<std::string> &overrides,
                                const ConfigReader &cfg, Diagnostics &diags);

} // namespace ps::core::profiling
