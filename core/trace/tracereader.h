#pragma once
// The interface every trace format reader implements, and the registry the loader picks readers
// from. The nsys SQLite reader is built in; rocpd, Kineto JSON and Ascend DB readers register
// themselves with ReaderRegistry::add() (e.g. from the application's start-up).

#include "core/trace/report.h"
#include "core/trace/storebuilder.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

// Cancellation shared between the caller (any thread) and the loader's workers.
class CancelToken
{
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled{false};
};

// Readers poll ReadContext::cancel and report progress once every this many rows or events:
// often enough to stop within milliseconds, rarely enough to cost nothing.
inline constexpr size_t kPollRows = 16384;

// What a reader gets besides the path.
struct ReadContext
{
    const CancelToken *cancel = nullptr; // poll now and then; return an error "cancelled" when set
    // Reports progress within this file, 0..1. May be empty. Called from the reading thread.
    std::function<void(double)> progress;
    // Worker threads the reader may use for this one file (>= 1), e.g. rowid ranges of large
    // tables on separate read-only connections.
    int threads = 1;
    // Tables with fewer rows than this are read on one connection.
    size_t splitRows = 500000;
};

class TraceReader
{
public:
    virtual ~TraceReader() = default;
    virtual TraceFormat format() const = 0;
    // Cheap check on the path and its first bytes (up to 4 KiB): is this file for this reader?
    virtual bool probe(std::string_view path, std::string_view head) const = 0;
    // Reads the whole file. Returns "" on success, else a reason naming the file and what was
    // expected ("x.sqlite: not an Nsight Systems export (no StringIds table)"). Must never
    // write the input: SQLite through a URI with mode=ro&immutable=1.
    virtual std::string read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                             const ReadContext &ctx) const = 0;
};

class ReaderRegistry
{
public:
    // The process-wide registry, holding the built-in readers.
    static ReaderRegistry &instance();
    // Takes ownership; thread-safe; later readers are probed first.
    void add(std::shared_ptr<const TraceReader> reader);
    // The reader for a file, or nullptr. Reads the file's head itself.
    std::shared_ptr<const TraceReader> readerFor(const std::string &path, std::string *error = nullptr) const;
    std::vector<std::shared_ptr<const TraceReader>> readers() const;

private:
    ReaderRegistry();
    struct Impl;
    std::shared_ptr<Impl> d;
};

} // namespace ps::core::trace
