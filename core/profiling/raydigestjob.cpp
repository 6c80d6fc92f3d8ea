#include "core/profiling/raydigestjob.h"

#include "core/common/pythonliteral.h"
#include "core/common/shellquote.h"

#include <algorithm>

namespace ps::core::profiling {

namespace {

// The driver after its FOLDERS line: the per-node task, the pinning and the report.
constexpr const char *kDriverBody = R"PY(@ray.remote(num_cpus=1)
def digest_on_node(folders):
    """Runs on one node: digests every report under the folders this node has."""
    present = [f for f in folders if os.path.isdir(f)]
    if not present:
        return {"digests": [], "failures": [], "folders": []}
    cli = os.environ.get("PROFSTUDIO_CLI", "profstudio-cli")  # the node's own environment
    try:
        proc = subprocess.run([cli, "trace", "digest", "--format", "json", "--"] + present,
                              capture_output=True, text=True)
    except OSError as e:
        reason = "cannot run %s (%s); install profstudio-cli on the node or set PROFSTUDIO_CLI" % (cli, e)
        return {"digests": [], "failures": [{"path": " ".join(present), "reason": reason}], "folders": present}
    try:
        result = json.loads(proc.stdout)
    except ValueError:
        reason = (proc.stderr or "no output").strip()[-1000:]
        result = {"digests": [], "failures": [{"path": " ".join(present), "reason": reason}]}
    if proc.returncode != 0 and not result.get("failures"):
        reason = "profstudio-cli exited with %d: %s" % (proc.returncode, (proc.stderr or "").strip()[-1000:])
        result.setdefault("failures", []).append({"path": " ".join(present), "reason": reason})
    result["folders"] = present
    return result


def main():
    ray.init(address=os.environ.get("RAY_ADDRESS", "auto"))
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    if not nodes:
        print("no alive Ray node", file=sys.stderr)
        return 1
    pending = {}
    for node in nodes:
        pin = NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=False)
        pending[digest_on_node.options(scheduling_strategy=pin).remote(FOLDERS)] = node
    print("digesting the reports of %s on %d node(s)" % (CONFIG, len(nodes)), flush=True)
    failures, digested, events, size = [], 0, 0, 0
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        node = pending.pop(done[0])
        name = node.get("NodeManagerHostname") or node.get("NodeManagerAddress") or node["NodeID"]
        try:
            r = ray.get(done[0])
        except Exception as e:  # the task itself failed (node lost, ...)
            r = {"digests": [], "failures": [{"path": name, "reason": repr(e)}], "folders": []}
        r["host"] = name  # Ray's name of the node the task was pinned to
        digested += len(r["digests"])
        events += sum(d.get("events", 0) for d in r["digests"])
        size += sum(d.get("digest_bytes", 0) for d in r["digests"])
        failures += [dict(f, host=r["host"]) for f in r["failures"]]
        print("node %s: %d report(s) digested, %d failed%s" % (
            r["host"], len(r["digests"]), len(r["failures"]),
            "" if r["folders"] else " (none of the run's folders is on this node)"), flush=True)
    print("%d report(s) digested on %d node(s): %d events, %d bytes of digests; %d failed" % (
        digested, len(nodes), events, size, len(failures)), flush=True)
    for f in failures:
        print("  failed on %s: %s" % (f["host"], f["reason"]), file=sys.stderr)
    print("collect the digests with the collect script (it fetches *.psdigest by default)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
)PY";

} // namespace

std::string exportRayDigestJob(const LaunchPlan &plan, const std::string &configLabel)
{
    std::vector<std::string> folders;
    for (const auto &[node, dir] : plan.collect)
        if (std::find(folders.begin(), folders.end(), dir) == folders.end())
            folders.push_back(dir);
    std::string s =
        "#!/usr/bin/env python3\n"
        "# Digests the reports of " +
        commentText(configLabel) +
        " where they were written, on the cluster's own Ray, written by ProfStudio.\n"
        "# One task per alive node (NodeAffinitySchedulingStrategy, soft=False) runs\n"
        "# `profstudio-cli trace digest` over the run's folders that the node has; each report\n"
        "# gets REPORT.psdigest beside it. Submit it after the run, from this file's folder:\n"
        "#   ray job submit --working-dir . -- python3 profstudio_digest_job.py\n"
        "# profstudio-cli must be on the nodes' PATH, or named by PROFSTUDIO_CLI, e.g.\n"
        "#   --runtime-env-json '{\"env_vars\": {\"PROFSTUDIO_CLI\": \"/opt/profstudio/bin/profstudio-cli\"}}'\n"
        "import json\nimport os\nimport subprocess\nimport sys\n\nimport ray\n"
        "from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy\n\n";
    // Literals py_compile takes for any bytes (CR, quotes, backslashes, triple quotes, non-UTF-8).
    s += "CONFIG = " + pythonStringLiteral(configLabel) + "\n";
    s += "# The folders the profiled workers write (relative ones: to the worker's working directory).\n";
    s += "FOLDERS = " + pythonStringListLiteral(folders) + "\n";
    return s + kDriverBody;
}

} // namespace ps::core::profiling
