#pragma once
// The finish hook that digests a verl worker's reports where they were written (verl main's
// global_profiler.finish_hook_cmd, V3 of ../shared/spec/profiling-config-2026.md): verl runs it
// through /bin/sh -c once per profiled rank after the last profiled step, with VERL_PROFILE_*
// naming the worker and its folders; `profstudio-cli trace digest --verl-hook` reads them. The
// command holds no double quote, as verl's docs require of the value.

namespace ps::core::profiling {

inline constexpr const char *kVerlDigestHookCommand = "profstudio-cli trace digest --verl-hook";

} // namespace ps::core::profiling
