#pragma once
// The interface every trace format reader implements, and the registry the loader picks readers
// from. The registry holds the built-in readers (nsys SQLite, then those formats/formatreaders.cpp
// adds: rocpd, Ascend, Kineto, .nsys-rep, RLinf traces, CUDA memory files); more can be added with
// ReaderRegistry::add(). Each reader says which file names it reads, so "is this a report", the
// Open dialog's filter and what a folder yields are answered in one place: the registry.

#include "core/common/canceltoken.h"
#include "core/trace/store/report.h"
#include "core/trace/store/storebuilder.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace {

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

// A file name a reader reads: a glob (fnmatch(3)) on the lower-cased file name, e.g. "*.sqlite".
// `inFolders`: also taken when a folder is opened; false for names that are the reader's only when
// given one by one (any `.jsonl` may be an RLinf trace, but in a run folder most are logs).
struct NamePattern
{
    std::string glob;
    bool inFolders = true;
};

class TraceReader
{
public:
    virtual ~TraceReader() = default;
    virtual TraceFormat format() const = 0;
    // The file names this reader reads (the probe still decides on the bytes).
    virtual std::vector<NamePattern> namePatterns() const = 0;
    // Whether one file holds many reports (RLinf's trace_events.jsonl: every worker's); the loader
    // then reads it with readAll, and it cannot be digested as one report.
    virtual bool holdsManyReports() const { return false; }
    // Cheap check on the path and its first bytes (up to 4 KiB): is this file for this reader?
    virtual bool probe(std::string_view path, std::string_view head) const = 0;
    // Reads the whole file. Returns "" on success, else a reason naming the file and what was
    // expected ("x.sqlite: not an Nsight Systems export (no StringIds table)"). Must never
    // write the input: SQLite through a URI with mode=ro&immutable=1.
    virtual std::string read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                             const ReadContext &ctx) const = 0;
    // The format's own rules on the report once its store is built (nsys: the UTC origin of an
    // export made with --ts-normalize). Nothing by default.
    virtual void finish(ReportMeta &meta, const EventStore &store) const
    {
        (void)meta;
        (void)store;
    }
};

// Which names the registry answers for: a file given by the user, or one found in a folder.
enum class NameScope { Given, InFolder };

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
    // Whether some reader (or the digest) reads a file of this name, case-insensitively.
    bool isReportName(std::string_view path, NameScope scope) const;
    // Every glob of `isReportName(…, Given)`, once each, for an Open dialog's filter.
    std::vector<std::string> namePatterns() const;
    // Whether the readers of this name read it as one file of many reports (holdsManyReports).
    bool holdsManyReports(std::string_view path) const;

private:
    ReaderRegistry();
    struct Impl;
    std::shared_ptr<Impl> d;
};

} // namespace ps::core::trace
