#pragma once
// Headless rendering of the main window for docs, checks and machines without a display.

#include <QString>
#include <QStringList>

namespace ps::app {

class MainWindow;

struct ScreenshotRequest
{
    QString workspace; // "configure" or "timeline"
    QString outFile;   // PNG path
    QString size;      // "WxH"
    QStringList paths; // opened before rendering; with configName: Hydra overrides
    // configure: compose `configName` from `configDirs` with `paths` as overrides instead of
    // opening paths.
    QStringList configDirs;
    QString configName;
};

// Opens the paths, waits for the workspace's background work to finish (at most 120 s), grabs
// the window and writes the PNG atomically. Returns the process exit status (0 ok, 1 the PNG
// could not be written or loading failed, 2 bad usage) and prints the reason on stderr.
int runScreenshot(MainWindow &window, const ScreenshotRequest &request);

} // namespace ps::app
