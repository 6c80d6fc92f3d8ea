#pragma once
// Reader for Nsight Systems SQLite exports (`nsys export --type sqlite`), nsys 2021 to 2025.6
// (schema 2.9 -> 3.24). Every table is optional and columns are selected by name; see
// ../shared/spec/trace-formats.md section 1 for the facts this relies on.
//
// Kinds read: Kernel, Memcpy, Memset, Sync (CUPTI_ACTIVITY_KIND_*), CudaApi (RUNTIME rows with
// eventClass 0 or 1; backtrace duplicates (67) are dropped), OsRuntime (OSRT_API), NVTX
// push/pop (59, 70), start/end (60, 71) and marks (34). Ids are masked: pid = (globalTid >> 24)
// & 0xFFFFFF, tid = globalTid & 0xFFFFFF.

#include "core/trace/read/tracereader.h"

namespace ps::core::trace {

class NsysReader : public TraceReader
{
public:
    TraceFormat format() const override { return TraceFormat::NsysSqlite; }
    std::vector<NamePattern> namePatterns() const override { return {{"*.sqlite"}}; }
    // An export made with --ts-normalize has absolute times and no UTC origin to add.
    void finish(ReportMeta &meta, const EventStore &store) const override;
    bool probe(std::string_view path, std::string_view head) const override;
    std::string read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                     const ReadContext &ctx) const override;
};

} // namespace ps::core::trace
