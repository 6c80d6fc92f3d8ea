#pragma once
// What a launch plan needs beyond the config: the cluster it runs on and the facts of the
// launch the config cannot know (interpreter, paths, Ray session). Every field has a default
// that reproduces the spec's worked examples; the CLI exposes each as an option.

#include <optional>
#include <string>
#include <vector>

namespace ps::core::profiling {

struct ClusterDescription
{
    // Nodes; nullopt = the config's value (RLinf cluster.num_nodes, verl trainer.nnodes).
    std::optional<long long> numNodes;
    // Accelerators per node; nullopt = verl's trainer.n_gpus_per_node, or 8 for RLinf (whose
    // config does not say; RLinf asks the node).
    std::optional<long long> gpusPerNode;
    // Profiling tools installed on every node ("nsight", "rocprof_sys"); nullopt = unknown,
    // which skips RLinf's allocation-time check (A3.7).
    std::optional<std::vector<std::string>> availableBackends;
};

struct LaunchOptions
{
    // Interpreter of the workers: RLinf's node sys.executable / python_interpreter_path.
    std::string python = "/usr/bin/python3";
    // RLinf checkout on the cluster (driver line, default remote config dir).
    std::string rlinfRepo = "/opt/RLinf";
    // The driver's working directory: a relative runner.logger.log_path is made absolute
    // against it, as os.path.abspath in the driver does.
    std::optional<std::string> driverCwd; // default: rlinfRepo
    // Override runner.logger.log_path / experiment_name (run_embodiment.sh overrides log_path).
    std::optional<std::string> logPath;
    std::optional<std::string> experimentName;
    // Ray's session directory on each node. Its id is only known once Ray starts; Ray links
    // /tmp/ray/session_latest to it on every node, and that path (unlike the spec's
    // "session_<id>" placeholder, which bash reads as redirections) round-trips through bash.
    std::string raySessionDir = "/tmp/ray/session_latest";
    // tempfile.gettempdir() on the driver: RLinf's fallback output dir.
    std::string tempDir = "/tmp";
    // The config dir as the cluster sees it, for the driver / ray-job lines. Empty: RLinf
    // <rlinfRepo>/examples/embodiment/config/, verl its packaged config (no --config-path).
    std::string remoteConfigDir;
    // ray job submit: the runtime env's working_dir.
    std::string workingDir = ".";
};

} // namespace ps::core::profiling
