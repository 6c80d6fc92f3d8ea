#pragma once
// Kineto trace events as the reader sees them, and their decoding from JSON (simdjson on
// demand, kept out of this header). A Decoder turns one batch of the traceEvents array (as cut
// by TraceEventSplitter) into Events for a sink; the Events' strings point into the decoder's
// buffer and stay valid until its next batch.

#include "core/trace/store/tracetypes.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ps::core::trace::formats::kineto {

// Categories the reader distinguishes; everything else is Other (a range).
enum class Cat : uint8_t {
    Other,
    CpuOp,
    UserAnnotation,
    PythonFunction,
    Trace,
    Runtime,
    Driver,
    Kernel,
    Memcpy,
    Memset,
    Sync,
    GpuAnnotation,
    Ac2g,
};

inline Cat catOf(std::string_view c)
{
    switch (c.size()) {
    case 4:
        return c == "ac2g" ? Cat::Ac2g : Cat::Other;
    case 5:
        return c == "Trace" ? Cat::Trace : Cat::Other;
    case 6:
        return c == "cpu_op" ? Cat::CpuOp : c == "kernel" ? Cat::Kernel : Cat::Other;
    case 9:
        return c == "cuda_sync" ? Cat::Sync : Cat::Other;
    case 10:
        return c == "gpu_memcpy" ? Cat::Memcpy : c == "gpu_memset" ? Cat::Memset : Cat::Other;
    case 11:
        return c == "cuda_driver" ? Cat::Driver : Cat::Other;
    case 12:
        return c == "cuda_runtime" ? Cat::Runtime : Cat::Other;
    case 15:
        return c == "user_annotation" ? Cat::UserAnnotation : c == "python_function" ? Cat::PythonFunction : Cat::Other;
    case 19:
        return c == "gpu_user_annotation" ? Cat::GpuAnnotation : Cat::Other;
    default:
        return Cat::Other;
    }
}

inline bool isGpuCat(Cat c)
{
    return c == Cat::Kernel || c == Cat::Memcpy || c == Cat::Memset || c == Cat::Sync || c == Cat::GpuAnnotation;
}

// A pid or tid: Kineto writes ints for OS ids and GPU device/stream, strings for profiler spans.
struct Id
{
    bool numeric = true;
    int64_t num = 0;
    std::string_view str;
};

// c10d's collective metadata as Kineto copies it onto the kernel (spec A3); empty when absent.
struct CollectiveArgs
{
    std::string_view op, groupName, groupDesc, groupRanks, dtype, inSplit, outSplit;
    int64_t inNelems = -1, outNelems = -1, groupSize = -1, seq = -1, peer = -1;
    bool any() const { return !op.empty() || !groupName.empty(); }
};

struct Event
{
    char ph = 0;
    bool hasCat = false;
    std::string_view cat, name;
    Id pid, tid;
    std::optional<int64_t> ts, dur;
    // ts or dur is present but not a number of µs whose ns a clock can give (eventtimes.h):
    // the event is dropped and counted.
    bool badTime = false;
    uint64_t flowId = 0;
    bool bindEnclosing = false;
    // args
    uint32_t correlation = 0;
    std::optional<int64_t> device, stream;
    uint64_t bytes = 0;
    LaunchConfig launch;
    bool hasLaunch = false;
    CollectiveArgs collective; // kernels only
    std::string_view argName;  // M events
    // "[memory]" instants (profile_memory=True): the caching allocator's state after the event.
    std::optional<int64_t> totalAllocated, memoryDevice;
    int64_t memoryDeviceType = -1; // c10::DeviceType: 0 CPU, 1 CUDA, 20 PrivateUse1 (NPU), ...
};

class EventSink
{
public:
    virtual ~EventSink() = default;
    virtual void event(Event &ev) = 0;
};

class Decoder
{
public:
    Decoder();
    ~Decoder();
    Decoder(const Decoder &) = delete;
    Decoder &operator=(const Decoder &) = delete;

    // Decodes `batch` (comma-separated event objects, no brackets) into `sink`, in order.
    // "" or simdjson's message for malformed JSON.
    std::string decodeBatch(std::string_view batch, EventSink &sink);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace ps::core::trace::formats::kineto
