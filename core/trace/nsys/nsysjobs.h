#pragma once
// Internal to the nsys reader: which rows to read, and reading them. One Job per event table, or
// per rowid range of a large table when the reader may use several threads (ReadContext::threads,
// splitRows); jobs run on the caller's connection or on one read-only connection per worker. Each
// job fills its own Chunk, so workers share nothing but the progress counter.

#include "core/trace/nsys/nsystables.h"

#include <set>
#include <string>
#include <vector>

namespace ps::core::trace {
class ReadOnlySqlite;
struct ReadContext;
} // namespace ps::core::trace

namespace ps::core::trace::nsys {

struct JobPlan
{
    std::vector<Job> jobs; // in table order, each table's ranges in rowid order
    size_t totalRows = 0;  // for progress
};

// "" or an error; `plan` lists the jobs of every present, non-empty event table.
std::string planJobs(const ReadOnlySqlite &db, const std::string &path, const std::set<std::string> &tables,
                     const ReadContext &ctx, JobPlan &plan);

// "" or an error (PATH: cancelled when the context cancels); chunks[i] holds jobs[i]'s rows.
std::string readJobs(const ReadOnlySqlite &db, const std::string &path, const JobPlan &plan,
                     const std::vector<NameId> &strings, const ReadContext &ctx, std::vector<Chunk> &chunks);

} // namespace ps::core::trace::nsys
