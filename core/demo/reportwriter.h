#pragma once
// Writes one rank's Nsight Systems SQLite export: the metadata a real export carries (export
// and session info, processes, threads, GPU, streams, captured stdout/stderr) and the events of
// StepModel, all in one transaction through prepared statements.

#include "core/demo/runplan.h"

#include <cstdint>
#include <string>

namespace ps::core::demo {

// Writes `path` (through a temporary file renamed into place). Returns false with `error`.
// `rows` receives the number of event rows written.
bool writeReport(const RunPlan &plan, int rank, const std::string &path, int64_t &rows, std::string &error);

// globalTid / globalPid packing of nsys exports (trace-formats.md 1.2): (vm << 48) | (pid << 24) | tid.
constexpr int64_t kVmId = 1;
constexpr int64_t globalTid(int64_t pid, int64_t tid)
{
    return (kVmId << 48) | (pid << 24) | tid;
}
constexpr int64_t globalPid(int64_t pid)
{
    return globalTid(pid, 0);
}

// The file name RLinf's nsys prefix yields (profiling-config.md A6), with .sqlite for the export.
std::string reportFileName(int rank, int64_t pid);

} // namespace ps::core::demo
