// libFuzzer target: the digest decoder (docs/digest-format.md). The input is a digest whose
// zstd sections may be stored unpacked: a codec-1 section that is not a zstd frame is compressed
// here, and every offset, stored size and checksum is then made to agree with the bytes, so that
// mutations reach what lies behind the checksums (the section table, the outline's and the
// events' cache images, the track extents and pyramids, the summaries) instead of stopping there.
// The digest is then opened both ways (outline, whole) and what the CLI reads from an outline is
// decoded. Every failure must name the file; nothing may crash, hang or read out of bounds.
// Seed with tests/fuzz/trace/makedigestseeds.sh.

#include "../fuzzinput.h"
#include "core/analysis/digestsummary.h"
#include "core/analysis/phases/phasesummary.h"
#include "core/trace/persist/cachecodec.h"
#include "core/trace/persist/digest.h"
#include "core/trace/persist/zstdcodec.h"
#include "core/trace/read/reportsource.h"
#include "core/trace/tracesummary.h"
#include "fuzzexercise.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

constexpr size_t kFixedHeader = 24, kEntrySize = 40, kMaxSections = 16;

template <class T> T get(const char *p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <class T> void put(std::string &s, size_t at, T v)
{
    std::memcpy(s.data() + at, &v, sizeof v);
}

bool isZstdFrame(std::string_view b)
{
    return b.size() >= 4 && get<uint32_t>(b.data()) == 0xFD2FB528u;
}

// The input as a digest whose sizes and checksums hold (see the header comment); anything that
// does not have a section table is returned as it is.
std::string pack(std::string_view in)
{
    if (in.size() < kFixedHeader || in.compare(0, 8, "PSDIGEST") != 0)
        return std::string(in);
    const uint32_t count = get<uint32_t>(in.data() + 12);
    if (count > kMaxSections || in.size() < kFixedHeader + kEntrySize * count)
        return std::string(in);
    std::string out(in.substr(0, kFixedHeader + kEntrySize * count));
    for (uint32_t i = 0; i < count; ++i) {
        const size_t e = kFixedHeader + kEntrySize * i;
        const uint64_t offset = get<uint64_t>(in.data() + e + 8), stored = get<uint64_t>(in.data() + e + 16);
        if (offset > in.size() || stored > in.size() - offset)
            continue; // left lying: the reader must refuse it
        std::string bytes(in.substr(offset, stored));
        if (get<uint32_t>(in.data() + e + 4) == 1 && !isZstdFrame(bytes)) {
            put<uint64_t>(out, e + 24, bytes.size());
            bytes = ps::core::trace::zstdCompress(bytes, 1);
        }
        out.resize((out.size() + 7) / 8 * 8, '\0');
        put<uint64_t>(out, e + 8, out.size());
        put<uint64_t>(out, e + 16, bytes.size());
        put<uint64_t>(out, e + 32, ps::core::trace::cacheHash(bytes.data(), bytes.size()));
        out += bytes;
    }
    put<uint64_t>(out, 16, ps::core::trace::cacheHash(out.data() + kFixedHeader, kEntrySize * count));
    return out;
}

void checkNamesFile(const std::string &error, const std::string &path)
{
    if (!error.empty() && error.find(path) == std::string::npos)
        __builtin_trap(); // every error names the file
}

// What the CLI and the views read from an outline, asked as they ask it (through the report
// source, which names the digest in every error; the section decoders alone do not know it).
void exerciseOutline(const ps::core::trace::ReportPtr &outline, const std::string &path)
{
    using namespace ps::core;
    exerciseStore(outline);
    std::string error;
    (void)analysis::wholeBreakdown(*outline, error);
    checkNamesFile(error, path);
    error.clear();
    (void)analysis::deviceBusyPyramids(*outline, error);
    checkNamesFile(error, path);
    error.clear();
    (void)trace::summaryOf(*outline, analysis::kPhaseCells, error);
    checkNamesFile(error, path);
    error.clear();
    (void)trace::summaryOf(*outline, trace::kTraceSummary, error);
    checkNamesFile(error, path);
    error.clear();
    (void)trace::summaryOf(*outline, trace::kTrackExtents, error);
    checkNamesFile(error, path);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace ps::core::trace;
    static const std::string dir = "/tmp/fuzz_digest_" + std::to_string(::getpid());
    static const std::string path = dir + "/rank3.sqlite.psdigest";
    static const bool made = ::mkdir(dir.c_str(), 0700) == 0;
    (void)made;
    const std::string digest = pack(std::string_view(reinterpret_cast<const char *>(data), size));
    if (!writeFuzzInput(path, digest.data(), digest.size()))
        return 0;
    std::string error;
    if (ReportPtr outline = readDigestOutline(path, error))
        exerciseOutline(outline, path);
    checkNamesFile(error, path);
    error.clear();
    if (ReportPtr whole = readDigest(path, error))
        exerciseStore(whole);
    checkNamesFile(error, path);
    return 0;
}
