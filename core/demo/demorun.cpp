#include "core/demo/demorun.h"

#include "core/common/atomicfile.h"
#include "core/demo/democonfig.h"
#include "core/demo/eventsink.h"
#include "core/demo/reportwriter.h"
#include "core/demo/runplan.h"
#include "core/demo/stepmodel.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <system_error>

namespace ps::core::demo {

namespace {

// Rows one rank's report gets for one step with `microBatches` per training_step.
int64_t rowsPerStep(const DemoOptions &options, int64_t microBatches)
{
    DemoOptions one = options;
    one.ranks = 1;
    one.steps = 1;
    const RunPlan plan(one, microBatches);
    CountingSink counter;
    StepModel model(plan, 0, counter);
    model.run();
    return counter.rows;
}

// Micro-batches per training_step that make a report hold about `eventsPerReport` rows. The row
// count is linear in the micro-batches, so two dry runs of one step give the line.
int64_t microBatchesFor(const DemoOptions &options)
{
    if (options.eventsPerReport == 0)
        return RunPlan::kNaturalMicroBatches;
    const int64_t one = rowsPerStep(options, 1);
    const int64_t perMicroBatch = rowsPerStep(options, 2) - one;
    const double perStep = static_cast<double>(options.eventsPerReport) / options.steps;
    const double wanted = 1.0 + (perStep - static_cast<double>(one)) / static_cast<double>(perMicroBatch);
    return std::max<int64_t>(1, std::llround(wanted));
}

} // namespace

std::string validateDemoOptions(const DemoOptions &options)
{
    if (options.outDir.empty())
        return "an output directory is required";
    if (options.ranks < 1 || options.ranks > kMaxDemoRanks)
        return "ranks must be between 1 and " + std::to_string(kMaxDemoRanks);
    if (options.steps < 1 || options.steps > 1000)
        return "steps must be between 1 and 1000";
    if (options.eventsPerReport < 0 || options.eventsPerReport > 2000000000)
        return "events per report must be between 0 (natural size) and 2000000000";
    if (options.firstStep < 0 || options.firstStep > 1000000)
        return "the first profiled step must be between 0 and 1000000";
    return {};
}

bool writeDemoRun(const DemoOptions &options, DemoResult &result, std::string &error)
{
    result = {};
    error = validateDemoOptions(options);
    if (!error.empty())
        return false;

    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path out = fs::absolute(fs::path(options.outDir), ec).lexically_normal();
    const fs::path configDir = out / "config";
    const fs::path reportDir = out / "profiling";
    for (const fs::path &dir : {configDir / "profile", reportDir}) {
        fs::create_directories(dir, ec);
        if (ec) {
            error = "cannot create " + dir.string() + ": " + ec.message();
            return false;
        }
    }

    // Reports of an earlier demo run in the same folder (other seed, more ranks) would otherwise
    // be read together with this run's.
    for (const auto &entry : fs::directory_iterator(reportDir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("rlinf_profile_ActorGroup_", 0) == 0 &&
            (entry.path().extension() == ".sqlite" || entry.path().extension() == ".part"))
            fs::remove(entry.path(), ec);
    }

    const RunPlan plan(options, microBatchesFor(options));
    result.outDir = out.string();
    result.configDir = configDir.string();
    result.configName = kDemoConfigName;
    result.configPath = (configDir / (std::string(kDemoConfigName) + ".yaml")).string();
    result.presetPath = (configDir / "profile" / "default.yaml").string();
    result.reportDir = reportDir.string();
    for (int s = 0; s < options.steps; ++s)
        result.profiledSteps.push_back(options.firstStep + s);
    result.stragglerRank = plan.straggler();

    const DemoConfigText config = demoConfigText(options.ranks, result.profiledSteps, result.reportDir);
    for (const auto &[path, text] :
         {std::pair{result.configPath, &config.primary}, std::pair{result.presetPath, &config.preset}}) {
        error = writeFileAtomically(path, *text);
        if (!error.empty())
            return false;
    }

    for (int r = 0; r < options.ranks; ++r) {
        DemoReport report;
        report.rank = r;
        report.pid = plan.rank(r).pid;
        report.utcEpochNs = plan.rank(r).utcEpochNs;
        report.path = (reportDir / reportFileName(r, report.pid)).string();
        if (!writeReport(plan, r, report.path, report.rowCount, error))
            return false;
        result.totalRows += report.rowCount;
        result.reports.push_back(report);
    }
    return true;
}

} // namespace ps::core::demo
