#pragma once
// `profstudio --render REPORTS... --out FILE.png [--size WxH] [--range START:END] [--align SPEC]`:
// loads the reports as the Timeline workspace does (background loader, alignment), lays them out
// in a timeline view of the requested size and writes it to a PNG, for docs and checks.

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>

namespace ps::app {

struct RenderRequest
{
    QStringList reports;
    QString outFile;
    QString size = QStringLiteral("1600x900");
    QString range; // "START:END" on the aligned axis; numbers with ns/us/µs/ms/s (default ns)
    QString align; // "utc", "start", "range:NAME[#K]"; empty = the workspace default (utc)
};

// "1.5ms" -> 1500000, "-20us" -> -20000, "7" -> 7. nullopt when malformed.
std::optional<int64_t> parseTimeValue(const QString &text);
// "0:50ms" -> {0, 50000000}; nullopt unless START < END.
std::optional<std::pair<int64_t, int64_t>> parseTimeRange(const QString &text);

// Returns the process exit status: 0 written, 1 nothing loaded or the PNG could not be written,
// 2 bad usage; prints the reason on stderr.
int runRender(const RenderRequest &request);

} // namespace ps::app
