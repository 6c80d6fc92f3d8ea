#pragma once
// Digests: one compact, self-contained file per report (docs/digest-format.md), made where the
// report was written (on a cluster node) and opened on the desktop without the original file.
//
//   <report>.psdigest = header + section table + sections:
//     META  JSON: what the digest is of (source path, size, mtime, format, counts) and who made it
//     EVTS  the report's events and metadata as a trace cache image (cachecodec.h), zstd-compressed
//           (left out by --summary-only)
//     OUTL  the same image without events: processes, threads, names, tracks (reportoutline.h)
//     TRKS  per track: event count, first start, last end
//     PYRD  per track lane: a level-of-detail pyramid (lodpyramid.h), zstd-compressed
//     ...   summaries analyses add (phasesummary.h, digestsummary.h)
// A digest loads to the same events, counts and statistics as its report: the image is what the
// report cache stores for it, so the report cache can hold a digest's events as they are.
// Readers check every size and checksum before they allocate or decompress; a damaged or
// foreign file fails with a reason naming it.

#include "core/trace/store/report.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ps::core::trace {

inline constexpr std::string_view kDigestSuffix = ".psdigest";
// 2: XXH3 checksums (1 folded its tail with a XOR); 3: the COLL section (the GPU breakdown's
// communication split into wait and transfer needs it), so a digest without one is refused; 4: the
// collective records in their own section CREC instead of OUTL, read only when asked for; 5: each
// process's recorded identity in OUTL (cache format 12) and META's identity with world size and
// the variables its fields came from.
inline constexpr uint32_t kDigestVersion = 5;

// "x.sqlite.psdigest" -> true.
bool isDigestPath(std::string_view path);
// The report a digest path names: "runs/a/x.sqlite.psdigest" -> "runs/a/x.sqlite".
std::string digestSourcePath(std::string_view digestPath);

// A section an analysis adds: four-character tag and its bytes, stored as is or zstd-compressed.
struct DigestSection
{
    std::string tag;
    std::string bytes;
    bool compress = false;
};

struct DigestOptions
{
    int level = 3;         // zstd level (1 fast .. 19 small)
    int threads = 0;       // zstd worker threads; 0 = compress on the calling thread
    std::string createdBy; // e.g. "profstudio-cli 0.1.0", recorded in META
    // Leave the events out: the digest then opens as an outline only (readDigestOutline).
    bool summaryOnly = false;
    // More sections, e.g. the phase summary (analysis/phasesummary.h) that lets a run be triaged
    // without its events.
    std::vector<DigestSection> extraSections;
    // Sections made while encodeDigest() compresses the events, on another thread (what the
    // analyses add: analysis/digestsummary.h); each runs once per encodeDigest() call.
    std::vector<std::function<std::vector<DigestSection>()>> deferredSections;
};

// The digest file's bytes for a loaded report (its path, size and mtime name the source). The
// events are compressed on one thread while the summaries and pyramids are made on another.
std::string encodeDigest(const Report &report, const DigestOptions &options = {});
// Writes encodeDigest() to `path` atomically. Returns "" or the reason it could not.
std::string writeDigest(const Report &report, const std::string &path, const DigestOptions &options = {});

// Opens a digest: the report's events, meta and identity (from the digest's own path, with the
// suffix removed: a digest beside its report, or collected into the same tree, is the same
// worker). Null with `error` ("FILE: damaged digest: ...", "FILE: not a ProfStudio digest").
ReportPtr readDigest(const std::string &path, std::string &error);

// Opens a digest without decompressing its events: the report with an outline (reportoutline.h),
// no event store (Report::store is null) and its layout (Report::layoutOnly: tracks, no events).
// Null with `error` empty for a digest made before outlines existed (open it with readDigest),
// null with `error` when the file is not a sound digest.
ReportPtr readDigestOutline(const std::string &path, std::string &error);

// One section of a digest, decoded, read without decompressing the events: nullopt with `error`
// when the file is not a sound digest, nullopt with `error` empty when it has no such section.
std::optional<std::string> readDigestSection(const std::string &path, std::string_view tag, std::string &error);

} // namespace ps::core::trace
