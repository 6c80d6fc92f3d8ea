#include "core/profiling/rlinftracer.h"

#include "core/profiling/pathutil.h"
#include "core/profiling/pyconvert.h"
#include "core/profiling/pythonrepr.h"

namespace ps::core::profiling {

using config::Node;

namespace {
// "<class 'omegaconf.listconfig.ListConfig'>" -> "ListConfig", as AttributeError names a type.
std::string shortTypeName(const Node &value)
{
    std::string t = pythonTypeName(value);
    const size_t open = t.find('\'');
    const size_t close = t.rfind('\'');
    if (open == std::string::npos || close <= open)
        return t;
    t = t.substr(open + 1, close - open - 1);
    return t.substr(t.rfind('.') + 1);
}
} // namespace

void readRLinfTracer(const ConfigReader &cfg, RLinfProfiling &out, Diagnostics &diags)
{
    const std::string base = "cluster.tracer";
    RLinfTracer &t = out.tracer;
    t = RLinfTracer{};
    const Node *block = cfg.get(base);
    // validate_cfg creates an absent block as {} (tracing off); `tracer: null` is a key too, and
    // null.get() fails the same way as any other non-mapping.
    if (!block)
        return;
    t.present = true;
    if (!block->isDict()) {
        cfg.report(diags, "rlinf.tracer-not-dict",
                   "AttributeError: '" + shortTypeName(*block) +
                       "' object has no attribute 'get' (cluster.tracer must be a mapping: {enable, output_file})",
                   base);
        return;
    }
    if (const Node *en = block->find("enable")) {
        t.enable = pythonTruthy(*en);
        if (en->kind() != Node::Kind::Bool)
            cfg.report(diags, "rlinf.tracer-enable-not-bool",
                       "cluster.tracer.enable is " + pythonRepr(*en) +
                           ", not a bool; RLinf sets enable = bool(enable), so tracing is " + (t.enable ? "ON" : "OFF"),
                       base + ".enable");
    }
    for (const std::string &k : block->keys())
        if (k != "enable" && k != "output_file")
            cfg.report(diags, "rlinf.tracer-unknown-key",
                       "cluster.tracer." + k + " is not read by RLinf (the tracer reads only enable and output_file)",
                       base + "." + k);
    if (const Node *of = block->find("output_file"); of && pythonTruthy(*of))
        t.outputFile = pythonStr(*of);
    if (t.enable && t.outputFile.empty() && !out.logPath.empty()) {
        // os.path.join(log_path, experiment_name, "trace/trace_events.jsonl"), not abspath'd.
        t.outputFile = joinPath(joinPath(out.logPath, out.experimentName), "trace/trace_events.jsonl");
        t.outputFileDerived = true;
    }
}

void planRLinfTracer(const RLinfTracer &tracer, LaunchPlan &plan)
{
    if (!tracer.enable)
        return;
    WorkerLaunch w;
    w.name = "Tracer";
    w.group = "Tracer";
    w.node = 0;
    w.reason = "RLinf's tracer manager actor (cluster.tracer): appends the B/E trace events of every worker's "
               "Worker.timer / worker_timer and the runner's ScopedTimer sections, one JSON object per line";
    if (!tracer.outputFile.empty())
        w.outputs.push_back(tracer.outputFile);
    plan.workers.push_back(std::move(w));
    if (!tracer.outputFile.empty())
        plan.collect.emplace_back(0, dirName(tracer.outputFile));
    if (tracer.outputFileDerived)
        plan.notes.push_back("cluster.tracer.output_file derived as runner.logger.log_path/experiment_name/"
                             "trace/trace_events.jsonl = " +
                             tracer.outputFile);
    const bool relative = !tracer.outputFile.empty() && tracer.outputFile.front() != '/';
    plan.notes.push_back(
        std::string("the Tracer writes on node rank 0") +
        (relative ? " and makes the relative output_file absolute against its own working directory" : "") +
        "; ProfStudio opens the file as one report per worker (jq -s . converts it for Perfetto)");
}

} // namespace ps::core::profiling
