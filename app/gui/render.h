#pragma once
// `profstudio --render REPORTS... --out FILE.png [--size WxH] [--range START:END] [--align SPEC]`:
// loads the reports as the Timeline workspace does (background loader, alignment), lays them out
// in a timeline view of the requested size and writes it to a PNG, for docs and checks.

#include <QString>
#include <QStringList>

namespace ps::app {

struct RenderRequest
{
    QStringList reports;
    QString outFile;
    QString size = QStringLiteral("1600x900");
    QString range; // "START:END" on the aligned axis (views/scene/timeparse.h: units ns..s)
    QString align; // "utc", "start", "range:NAME[#K]"; empty = the workspace default (utc)
};

// Returns the process exit status: 0 written, 1 nothing loaded or the PNG could not be written,
// 2 bad usage; prints the reason on stderr.
int runRender(const RenderRequest &request);

} // namespace ps::app
