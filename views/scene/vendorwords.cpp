#include "views/scene/vendorwords.h"

#include <QStringList>

#include <algorithm>
#include <functional>

namespace ps::views {

using namespace ps::core::trace;

const FormatWords &formatWords(TraceFormat f)
{
    static const FormatWords nsys{"NVTX", "NVTX marks", "CUDA API", "Kernels", "GPU", "NVTX mark", "CUDA API call"};
    static const FormatWords rocpd{"roctx", "roctx marks", "HIP API", "Kernels", "GPU", "roctx mark", "HIP API call"};
    static const FormatWords ascend{"torch ops / mstx", "torch ops / mstx marks", "CANN (ACL) API", "Tasks", "NPU",
                                    "mstx mark",        "CANN (ACL) API call"};
    static const FormatWords kineto{"torch ops", "Instant events", "Runtime API",     "Kernels",
                                    "GPU",       "instant event",  "runtime API call"};
    static const FormatWords rlinf{"torch ops", "torch ops marks", "Runtime API",     "Kernels",
                                   "GPU",       "instant event",   "runtime API call"};
    switch (f) {
    case TraceFormat::Rocpd:
        return rocpd;
    case TraceFormat::AscendDb:
        return ascend;
    case TraceFormat::KinetoJson:
    case TraceFormat::TorchMemory: // its marks (peak, OOM) are instant events
        return kineto;
    case TraceFormat::RlinfTracer:
        return rlinf;
    case TraceFormat::NsysSqlite:
        break;
    }
    return nsys;
}

namespace {

QString text(const EventStore &store, NameId n)
{
    const std::string_view s = n != kNoName ? store.name(n) : std::string_view();
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// The range's category as its reader recorded it: Kineto's "cat" (cpu_op, python_function,
// user_annotation, ...), "mstx" for Ascend's mstx ranges, the API type of Ascend's torch ops.
QString categoryOf(const EventStore &store, const Track &t, uint32_t index)
{
    const auto scopes = store.nvtxScopes();
    const uint16_t attr = t.attr(index);
    return attr < scopes.size() ? text(store, scopes[attr].categoryName) : QString();
}

QString torchRangeWord(const QString &category)
{
    if (category == QLatin1String("python_function"))
        return QStringLiteral("Python frame");
    if (category == QLatin1String("user_annotation") || category == QLatin1String("gpu_user_annotation"))
        return QStringLiteral("user annotation (record_function)");
    if (category.isEmpty() || category == QLatin1String("cpu_op") || category == QLatin1String("operator") ||
        category == QLatin1String("(no category)"))
        return QStringLiteral("torch op");
    if (category == QLatin1String("Trace")) // the profiler's own span ("PyTorch Profiler (0)")
        return QStringLiteral("profiler span");
    return QStringLiteral("torch event (%1)").arg(category);
}

QString rangeWord(TraceFormat f, const EventStore &store, const Track &t, uint32_t index)
{
    switch (f) {
    case TraceFormat::Rocpd:
        return QStringLiteral("roctx range");
    case TraceFormat::AscendDb:
        if (t.trackClass() == TrackClass::CollectiveLane)
            return QStringLiteral("HCCL op");
        return categoryOf(store, t, index) == QLatin1String("mstx") ? QStringLiteral("mstx range")
                                                                    : QStringLiteral("torch op");
    case TraceFormat::KinetoJson:
    case TraceFormat::RlinfTracer:
    case TraceFormat::TorchMemory:
        return torchRangeWord(categoryOf(store, t, index));
    case TraceFormat::NsysSqlite:
        break;
    }
    return t.kind() == TrackKind::NvtxPushPop ? QStringLiteral("NVTX range (push/pop)")
                                              : QStringLiteral("NVTX range (start/end)");
}

QString markWord(TraceFormat f)
{
    return QString::fromUtf8(formatWords(f).mark);
}

QString apiWord(TraceFormat f)
{
    return QString::fromUtf8(formatWords(f).apiCall);
}

} // namespace

QString eventKindWord(TraceFormat f, const EventStore &store, const Track &t, uint32_t index)
{
    switch (t.kind()) {
    case TrackKind::NvtxPushPop:
    case TrackKind::NvtxStartEnd:
        return rangeWord(f, store, t, index);
    case TrackKind::NvtxMark:
        return markWord(f);
    case TrackKind::CudaApi:
        return apiWord(f);
    case TrackKind::OsRuntime:
        return QStringLiteral("OS runtime call");
    case TrackKind::Kernel:
        return f == TraceFormat::AscendDb ? QStringLiteral("NPU task") : QStringLiteral("Kernel");
    case TrackKind::Memcpy:
        return QStringLiteral("Memcpy");
    case TrackKind::Memset:
        return QStringLiteral("Memset");
    case TrackKind::Sync:
        return QStringLiteral("Synchronization");
    }
    return {};
}

namespace {
QString joinWords(const std::vector<TraceFormat> &formats, const std::function<QString(TraceFormat)> &word)
{
    QStringList words;
    for (TraceFormat f : formats)
        if (!words.contains(word(f)))
            words << word(f);
    return words.isEmpty() ? word(TraceFormat::NsysSqlite) : words.join(QStringLiteral(" + "));
}
bool onlyNsys(const std::vector<TraceFormat> &formats)
{
    return std::all_of(formats.begin(), formats.end(), [](TraceFormat f) { return f == TraceFormat::NsysSqlite; });
}
} // namespace

QString rangeStatsLabel(const std::vector<TraceFormat> &formats)
{
    const QString words = joinWords(formats, [](TraceFormat f) {
        switch (f) {
        case TraceFormat::Rocpd:
            return QStringLiteral("roctx ranges");
        case TraceFormat::AscendDb:
            return QStringLiteral("torch ops, mstx ranges and HCCL ops");
        case TraceFormat::KinetoJson:
        case TraceFormat::RlinfTracer:
        case TraceFormat::TorchMemory:
            return QStringLiteral("torch ops, Python frames and annotations");
        case TraceFormat::NsysSqlite:
            break;
        }
        return QStringLiteral("NVTX ranges");
    });
    return onlyNsys(formats) ? words + QStringLiteral(" (nvtx_sum)") : words;
}

QString rangeStyleWord(const std::string &style, const std::vector<TraceFormat> &formats)
{
    const bool anyNsys =
        formats.empty() || std::find(formats.begin(), formats.end(), TraceFormat::NsysSqlite) != formats.end();
    if (anyNsys || style.empty())
        return QString::fromStdString(style);
    return style == "PushPop" ? QStringLiteral("nested") : QStringLiteral("start/end");
}

QString kernelStatsLabel(const std::vector<TraceFormat> &formats)
{
    const QString words = joinWords(formats, [](TraceFormat f) {
        return f == TraceFormat::AscendDb ? QStringLiteral("NPU tasks") : QStringLiteral("Kernels");
    });
    return onlyNsys(formats) ? words + QStringLiteral(" (kernel_sum)") : words;
}

} // namespace ps::views
