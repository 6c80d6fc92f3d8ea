#include "core/analysis/phases/steps.h"

#include "core/analysis/phases/stepnumbering.h"

#include <charconv>
#include <map>

namespace ps::core::analysis {

namespace {

// The windows of the CPU-side ranges whose name `stepOf` gives a step number.
template <typename StepOf> std::vector<StepWindow> windowsOfSteps(const trace::EventStore &store, StepOf stepOf)
{
    // Step number per name id, computed once per distinct name.
    std::map<trace::NameId, std::optional<int64_t>> numbers;
    std::map<int64_t, TimeWindow> steps;
    for (uint32_t k : store.tracksOfKind(trace::TrackKind::NvtxPushPop)) {
        const trace::Track &t = store.track(k);
        for (size_t i = 0; i < t.size(); ++i) {
            auto [it, fresh] = numbers.try_emplace(t.name(i));
            if (fresh)
                it->second = stepOf(store.name(t.name(i)));
            if (!it->second)
                continue;
            auto [s, added] = steps.try_emplace(*it->second, TimeWindow{t.start(i), t.end(i)});
            if (!added) {
                s->second.start = std::min(s->second.start, t.start(i));
                s->second.end = std::max(s->second.end, t.end(i));
            }
        }
    }
    std::vector<StepWindow> out;
    for (const auto &[n, w] : steps)
        out.push_back({n, w});
    return out;
}

} // namespace

std::vector<StepWindow> stepWindows(const trace::EventStore &store, std::string_view prefix)
{
    return windowsOfSteps(store, [prefix](std::string_view name) -> std::optional<int64_t> {
        int64_t n = 0;
        const char *end = name.data() + name.size();
        if (name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix &&
            std::from_chars(name.data() + prefix.size(), end, n).ptr == end)
            return n;
        return std::nullopt;
    });
}

std::vector<StepWindow> namedStepWindows(const trace::EventStore &store)
{
    std::vector<StepWindow> pytorch = stepWindows(store);
    return pytorch.empty() ? windowsOfSteps(store, stepNamedBy) : pytorch;
}

} // namespace ps::core::analysis
