#include "app/cli/memorycompareoutput.h"

#include "core/trace/persist/tracecache.h"

#include <cstdio>
#include <string>

namespace ps::cli {

namespace an = ps::core::analysis;

namespace {

std::string bytesText(const std::optional<int64_t> &b)
{
    return b ? core::trace::formatByteSize(uint64_t(std::max<int64_t>(0, *b))) : std::string("-");
}

} // namespace

void writeMemoryPeaksText(std::ostream &out, const std::vector<an::MemoryPeakDelta> &peaks)
{
    if (peaks.empty())
        return;
    out << "Peak memory per matched rank:\n";
    char line[512];
    std::snprintf(line, sizeof line, "  %-20s %6s  %-28s %12s %12s %8s\n", "rank", "device", "source", "baseline",
                  "candidate", "delta");
    out << line;
    for (const an::MemoryPeakDelta &d : peaks) {
        const auto pct = d.deltaPct();
        char pctText[32] = "";
        std::snprintf(pctText, sizeof pctText, pct ? "%+.1f%%" : "-", pct.value_or(0));
        std::snprintf(line, sizeof line, "  %-20s %6u  %-28s %12s %12s %8s\n", d.key.substr(0, 20).c_str(), d.device,
                      d.source.substr(0, 28).c_str(), bytesText(d.baselineBytes).c_str(),
                      bytesText(d.candidateBytes).c_str(), pctText);
        out << line;
    }
}

void writeMemoryPeaksJson(core::JsonWriter &w, const std::vector<an::MemoryPeakDelta> &peaks)
{
    w.key("memory_peaks").beginArray();
    for (const an::MemoryPeakDelta &d : peaks) {
        w.beginObject().key("key").value(d.key).key("device").value(uint64_t(d.device)).key("source").value(d.source);
        w.key("baseline_bytes").value(d.baselineBytes).key("candidate_bytes").value(d.candidateBytes);
        w.key("delta_pct").value(d.deltaPct()).endObject();
    }
    w.endArray();
}

} // namespace ps::cli
