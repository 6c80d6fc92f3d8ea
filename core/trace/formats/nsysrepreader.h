#pragma once
// Raw Nsight Systems reports (.nsys-rep, .qdrep from 2021 and earlier, and the .qdstrm stream
// nsys leaves when its import failed). The only documented way to read them is `nsys export`
// (spec 1.8), so:
//   - the nsys used is the first found (nsyslocator.h: configured, $PROFSTUDIO_NSYS, PATH,
//     /opt/nvidia/nsight-systems/*/bin, /usr/local/cuda*/bin) whose release reads the report's
//     (its header says which release wrote it); a .qdstrm is first imported by the
//     QdstrmImporter beside that nsys (qdstrmimport.h). The report is converted into the cache with
//       nsys export --type sqlite --force-overwrite true --output <cache>/nsys-export/<key>.sqlite <file>
//     while nsys's progress is forwarded and Cancel kills it; the export is then read by the
//     nsys SQLite reader. A finished export is reused while the report's path, size and mtime
//     are unchanged (a ".done" stamp marks it complete, so a conversion that was cut off is redone).
//   - without nsys, or none new enough, reading fails with a message that names the report's
//     release and every nsys found, and gives the exact command to run.
// The report's format is nsys-sqlite: what is read is the export.

#include "core/trace/read/tracereader.h"

#include <string>
#include <vector>

namespace ps::core::trace {

struct NsysRepOptions
{
    std::string nsys;     // nsys executable; "" = the configured one, else $PROFSTUDIO_NSYS, else PATH
    std::string cacheDir; // "" = defaultCacheDir() (tracecache.h); exports go to <cacheDir>/nsys-export
};

class NsysRepReader : public TraceReader
{
public:
    explicit NsysRepReader(NsysRepOptions options = {}) : m_options(std::move(options)) {}

    TraceFormat format() const override { return TraceFormat::NsysSqlite; }
    std::vector<NamePattern> namePatterns() const override { return {{"*.nsys-rep"}, {"*.qdrep"}, {"*.qdstrm"}}; }
    // The export it makes is read as the nsys reader reads one, and finished the same way.
    void finish(ReportMeta &meta, const EventStore &store) const override;
    bool probe(std::string_view path, std::string_view head) const override;
    std::string read(const std::string &path, StoreBuilder &builder, ReportMeta &meta,
                     const ReadContext &ctx) const override;

    // Process-wide nsys executable (preferences); "" returns to $PROFSTUDIO_NSYS / PATH.
    static void setNsysExecutable(const std::string &path);
    static std::string nsysExecutable();

    // The first nsys found ("" when none is).
    std::string resolveNsys() const;
    // Where the export of `report` goes: <cacheDir>/nsys-export/<stem>-<hash of path, size, mtime>.sqlite.
    std::string exportPathFor(const std::string &report) const;
    // The argv run to convert `report` into `output` (argv[0] = nsys).
    static std::vector<std::string> exportArgv(const std::string &nsys, const std::string &output,
                                               const std::string &report);
    // Converts (or reuses a finished export). Returns "" and sets `sqlitePath`, or a reason.
    std::string convert(const std::string &report, std::string &sqlitePath, const ReadContext &ctx) const;

private:
    std::string configuredNsys() const; // the option, else the preferences' ("" = none)

    NsysRepOptions m_options;
};

} // namespace ps::core::trace
