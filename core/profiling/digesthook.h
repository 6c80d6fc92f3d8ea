#pragma once
// The finish hook that digests a verl worker's reports where they were written (verl main's
// global_profiler.finish_hook_cmd, V3 of ../shared/spec/profiling-config-2026.md): verl runs it
// through /bin/sh -c once per profiled rank after the last profiled step, with VERL_PROFILE_*
// naming the worker and its folders; `profstudio-cli trace digest --verl-hook` reads them. The
// command holds no double quote, as verl's docs require of the value.
//
// The whole contract is here: the command, the variables verl sets, and which reports they name.
// The CLI only lists the folders' files and digests those `wants` accepts.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ps::core::profiling {

inline constexpr const char *kVerlDigestHookCommand = "profstudio-cli trace digest --verl-hook";

// The variables verl sets for the hook (verl/utils/profiler/config.py, finish hook).
inline constexpr const char *kVerlProfilePid = "VERL_PROFILE_PID";
inline constexpr const char *kVerlProfileRank = "VERL_PROFILE_RANK";
inline constexpr const char *kVerlProfileRayNsightDir = "VERL_PROFILE_RAY_NSIGHT_DIR";
inline constexpr const char *kVerlProfileSavePath = "VERL_PROFILE_SAVE_PATH";
inline constexpr const char *kVerlProfileTool = "VERL_PROFILE_TOOL";
inline constexpr const char *kVerlProfileRole = "VERL_PROFILE_ROLE";

// What a hook's environment asks for: the worker (pid, rank) and the folders its reports are in.
struct VerlHookRequest
{
    std::string pid, rank;            // as verl set them ("" when unset)
    std::vector<std::string> folders; // VERL_PROFILE_RAY_NSIGHT_DIR then VERL_PROFILE_SAVE_PATH, those set
    std::string error;                // why the environment is not a hook's; "" when it is

    // Whether a report with this identity (from its file name) is the worker's: by pid when the
    // name carries one (nsys, torch >= 0.9), else by rank.
    bool wants(std::optional<uint32_t> reportPid, std::optional<int> reportRank) const;
    // Why no report was found, naming the worker and the folders that exist (`existing`).
    std::string nothingFound(const std::vector<std::string> &existing) const;
};

// The request of the environment `env` gives (the CLI passes std::getenv; tests a map). Pure.
VerlHookRequest verlHookRequest(const std::function<const char *(const char *)> &env);

} // namespace ps::core::profiling
