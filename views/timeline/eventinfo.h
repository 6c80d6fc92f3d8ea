#pragma once
// What the tooltip and the details pane say about one event: name, kind, duration, start on
// the shared axis, report, thread or stream, and the correlated CUDA API call or GPU work.

#include "views/scene/timelinescene.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace ps::views {

struct EventInfo
{
    QString name;      // kernels: the short name
    QString fullName;  // kernels: the demangled name; else as name
    QString kind;      // in the format's words: "Kernel", "NVTX range (push/pop)", "HCCL op", ... (vendorwords.h)
    int64_t start = 0; // shared axis, ns
    int64_t duration = 0;
    QString report;
    QString where;                                   // "thread python [1234]" or "GPU 0 · stream 7"
    std::optional<core::trace::EventRef> correlated; // the API call for GPU work, the kernel for a call
    QString correlatedText; // "launched by cudaLaunchKernel", "runs kernel gemm on GPU 0 · stream 7"
    QStringList extra;      // grid/block, bytes, depth, ...
    // The UTC ns of axis 0 when the axis is in UTC: times are then said as wall-clock dates.
    std::optional<int64_t> wallClockOrigin;

    // A time on the shared axis as the axis says it: "2025-01-09 08:16:16.380000123 UTC" in UTC
    // mode, else relative ("12.5 ms").
    QString timeText(int64_t shared) const;

    // Plain-text lines for the hover tooltip.
    QString toolTip() const;
};

QString eventName(const core::trace::EventStore &store, const core::trace::Track &track, uint32_t index);
EventInfo describeEvent(const TimelineEntry &entry, core::trace::EventRef ref,
                        std::optional<int64_t> wallClockOrigin = std::nullopt);

} // namespace ps::views
