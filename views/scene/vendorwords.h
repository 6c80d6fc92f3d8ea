#pragma once
// Each format's own words for what it records: NVTX / roctx / mstx ranges, torch ops and Python
// frames, CUDA / HIP / CANN (ACL) API calls, kernels or NPU tasks, GPU or NPU. Track labels,
// tooltips, the details pane and the statistics picker all say what the vendor's tools say.

#include "core/trace/store/report.h"

#include <QString>

namespace ps::views {

struct FormatWords
{
    const char *ranges, *marks, *api, *kernels, *device;
    const char *mark, *apiCall; // one event of a marks or API track, for the details pane
};

const FormatWords &formatWords(core::trace::TraceFormat format);

// What one range, mark or call is called ("NVTX range (push/pop)", "HCCL op", "mstx range",
// "Python frame", "torch op", "roctx range", "HIP API call", "NPU task"), from the report's
// format and the event's track and scope in `store`.
QString eventKindWord(core::trace::TraceFormat format, const core::trace::EventStore &store,
                      const core::trace::Track &track, uint32_t index);

// The statistics picker's ranges and kernels entries for the formats shown ("NVTX ranges
// (nvtx_sum)"; "torch ops / mstx ranges" for Ascend; both words when formats are mixed).
QString rangeStatsLabel(const std::vector<core::trace::TraceFormat> &formats);
QString kernelStatsLabel(const std::vector<core::trace::TraceFormat> &formats);
// The statistics' Style cell: nvtx_sum's "PushPop" / "StartEnd" where nsys reports are shown
// (or nothing says which), else what they are, "nested" / "start/end": torch ops and mstx
// ranges have no NVTX style.
QString rangeStyleWord(const std::string &style, const std::vector<core::trace::TraceFormat> &formats);

} // namespace ps::views
