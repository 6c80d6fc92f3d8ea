#include "core/trace/read/duplicatereports.h"

#include "core/trace/read/reportsource.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

namespace ps::core::trace {

namespace {

// Where a report stands in its run; reports with equal places claim the same rank.
using Place = std::tuple<int, std::string, std::string, std::string, int, int, std::string>;

Place placeOf(const Report &r)
{
    const ReportIdentity &id = r.identity;
    return {int(r.meta.format), id.run, id.group, id.scope, id.rank.value_or(-1), id.step.value_or(-1), id.part};
}

struct Facts
{
    int64_t start = 0; // UTC ns when recorded, else the first event's time
    int64_t span = 0;
    size_t events = 0;
    bool utc = false;
};

Facts factsOf(const Report &r)
{
    const ReportExtent e = extentOf(r);
    Facts f;
    f.utc = r.meta.utcStartNs.has_value();
    f.start = f.utc ? *r.meta.utcStartNs : e.firstStart;
    f.span = e.lastEnd - e.firstStart;
    f.events = e.events;
    return f;
}

// The file a report was read from: an RLinf tracer file gives one report per worker, "FILE#worker".
std::string_view fileOf(std::string_view path)
{
    return path.substr(0, path.find('#'));
}

// Same bytes, compared only when everything else already agrees (a rare case): reports read from
// the same file are never copies of each other.
bool sameBytes(const std::string &a, const std::string &b)
{
    std::ifstream x(a, std::ios::binary), y(b, std::ios::binary);
    if (!x || !y)
        return false;
    std::array<char, 1 << 16> bx{}, by{};
    for (;;) {
        x.read(bx.data(), bx.size());
        y.read(by.data(), by.size());
        if (x.gcount() != y.gcount() || std::memcmp(bx.data(), by.data(), size_t(x.gcount())) != 0)
            return false;
        if (!x || !y)
            return !x && !y;
    }
}

// Both claim the same rank (wherever they lie), or neither claims one and they have one name.
bool sameClaim(const Report &a, const Report &b)
{
    const ReportIdentity &x = a.identity, &y = b.identity;
    if (x.rank || y.rank)
        return x.rank == y.rank && x.group == y.group && x.step == y.step && x.scope == y.scope && x.part == y.part;
    return std::filesystem::path(a.path).filename() == std::filesystem::path(b.path).filename();
}

bool isCopy(const Report &a, const Facts &fa, const Report &b, const Facts &fb)
{
    const std::string_view fileA = fileOf(a.path), fileB = fileOf(b.path);
    return a.fileSize > 0 && fa.events > 0 && fileA != fileB && a.fileSize == b.fileSize && fa.start == fb.start &&
           fa.events == fb.events && fa.span == fb.span && a.meta.format == b.meta.format && sameClaim(a, b) &&
           a.path.substr(fileA.size()) == b.path.substr(fileB.size()) &&
           sameBytes(std::string(fileA), std::string(fileB));
}

std::string copyText(const Report &leftOut, const Report &kept)
{
    return leftOut.path + ": left out, a copy of " + kept.path + " (same size, start and events)";
}

std::string rankText(const Report &r)
{
    std::string s = "rank " + std::to_string(*r.identity.rank);
    if (!r.identity.group.empty())
        s += " of " + r.identity.group;
    if (r.identity.step)
        s += ", step " + std::to_string(*r.identity.step);
    return s;
}

std::string apartText(int64_t ns)
{
    const int64_t s = std::llabs(ns) / 1000000000;
    if (s >= 3600)
        return std::to_string(s / 3600) + " h " + std::to_string(s % 3600 / 60) + " min";
    if (s >= 60)
        return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
    return std::to_string(std::llabs(ns) / 1000000) + " ms";
}

// The median recorded start of the reports that claim a rank of the same run: where "the run" is,
// to tell which of two different runs' reports is the stray one.
int64_t runStart(std::span<const ReportPtr> reports, const std::vector<Facts> &facts, const std::string &run)
{
    std::vector<int64_t> starts;
    for (size_t i = 0; i < reports.size(); ++i)
        if (reports[i]->identity.run == run && facts[i].utc)
            starts.push_back(facts[i].start);
    if (starts.empty())
        return 0;
    std::nth_element(starts.begin(), starts.begin() + std::ptrdiff_t(starts.size() / 2), starts.end());
    return starts[starts.size() / 2];
}

// Of two reports claiming one place, which is left out (0 or 1) and why.
std::pair<int, std::string> resolve(const Report *r[2], const Facts *f[2], int64_t median)
{
    const int64_t apart = f[1]->start - f[0]->start;
    const bool otherRun = f[0]->utc && f[1]->utc && std::llabs(apart) > std::max(f[0]->span, f[1]->span);
    if (otherRun) {
        const int odd = std::llabs(f[1]->start - median) > std::llabs(f[0]->start - median) ? 1 : 0;
        return {odd, r[odd]->path + ": left out, " + rankText(*r[odd]) + " of another run: recorded " +
                         apartText(apart) + " apart from " + r[1 - odd]->path + ", which is kept"};
    }
    const bool tie = r[1]->fileMtimeNs == r[0]->fileMtimeNs;
    const int older = (tie ? r[1]->path > r[0]->path : r[1]->fileMtimeNs < r[0]->fileMtimeNs) ? 1 : 0;
    return {older, r[older]->path + ": left out, it claims " + rankText(*r[older]) + " as " + r[1 - older]->path +
                       " does, and that file is newer (one report per rank: remove or move the other)"};
}

// Copies first, wherever they lie (two subfolders are two run names, yet one capture): of each
// set of copies the oldest file is kept.
void leaveOutCopies(std::span<const ReportPtr> reports, const std::vector<Facts> &facts, std::vector<bool> &out,
                    std::vector<LeftOutReport> &leftOut)
{
    std::map<std::tuple<uint64_t, int64_t, size_t>, std::vector<size_t>> bySize;
    for (size_t i = 0; i < reports.size(); ++i)
        bySize[{reports[i]->fileSize, facts[i].start, facts[i].events}].push_back(i);
    for (auto &[key, group] : bySize) {
        // The original first: a copy is newer unless made with cp -p; then the first path.
        std::sort(group.begin(), group.end(), [&](size_t a, size_t b) {
            const Report &x = *reports[a], &y = *reports[b];
            return x.fileMtimeNs != y.fileMtimeNs ? x.fileMtimeNs < y.fileMtimeNs : x.path < y.path;
        });
        for (size_t a = 0; a < group.size(); ++a)
            for (size_t b = a + 1; b < group.size(); ++b)
                if (!out[group[a]] && !out[group[b]] &&
                    isCopy(*reports[group[a]], facts[group[a]], *reports[group[b]], facts[group[b]])) {
                    out[group[b]] = true;
                    leftOut.push_back({group[b], group[a], copyText(*reports[group[b]], *reports[group[a]])});
                }
    }
}

} // namespace

std::vector<LeftOutReport> duplicateReports(std::span<const ReportPtr> reports)
{
    std::vector<Facts> facts;
    facts.reserve(reports.size());
    for (const ReportPtr &r : reports)
        facts.push_back(factsOf(*r));
    std::vector<LeftOutReport> out;
    std::vector<bool> isOut(reports.size(), false);
    leaveOutCopies(reports, facts, isOut, out);
    std::map<Place, size_t> byPlace; // the report kept for each place so far
    for (size_t i = 0; i < reports.size(); ++i) {
        const Report &r = *reports[i];
        if (isOut[i] || !r.identity.rank || facts[i].events == 0) // an Ascend analysis.db: no timeline
            continue;
        const auto [it, fresh] = byPlace.emplace(placeOf(r), i);
        if (fresh)
            continue;
        const size_t kept = it->second;
        const Report *pair[2] = {reports[kept].get(), &r};
        const Facts *pairFacts[2] = {&facts[kept], &facts[i]};
        const auto [odd, why] = resolve(pair, pairFacts, runStart(reports, facts, r.identity.run));
        const size_t leftOut = odd == 0 ? kept : i;
        it->second = odd == 0 ? i : kept;
        isOut[leftOut] = true;
        out.push_back({leftOut, it->second, why});
    }
    std::sort(out.begin(), out.end(), [](const LeftOutReport &a, const LeftOutReport &b) { return a.index < b.index; });
    return out;
}

std::vector<ReportPtr> withoutDuplicates(std::span<const ReportPtr> reports, std::vector<std::string> &reasons,
                                         std::vector<LoadFailure> *leftOutFiles)
{
    const std::vector<LeftOutReport> leftOut = duplicateReports(reports);
    std::vector<bool> drop(reports.size(), false);
    for (const LeftOutReport &l : leftOut) {
        drop[l.index] = true;
        reasons.push_back(l.reason);
        if (leftOutFiles)
            leftOutFiles->push_back({reports[l.index]->path, l.reason});
    }
    std::vector<ReportPtr> kept;
    kept.reserve(reports.size() - leftOut.size());
    for (size_t i = 0; i < reports.size(); ++i)
        if (!drop[i])
            kept.push_back(reports[i]);
    return kept;
}

} // namespace ps::core::trace
