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
    QStringList paths; // opened before rendering; with ScreenshotConfig::name: Hydra overrides
    QString tab;       // a tab of the workspace to show ("RL Phases"), when set
};

// --screenshot configure --config-dir D --config-name N: compose N from D with the request's
// paths as overrides instead of opening paths.
struct ScreenshotConfig
{
    QStringList dirs;
    QString name;
};

// Opens the paths, waits for the workspace's background work to finish (at most 120 s), grabs
// the window and writes the PNG atomically. Returns the process exit status (0 ok, 1 the PNG
// could not be written or loading failed, 2 bad usage) and prints the reason on stderr.
int runScreenshot(MainWindow &window, const ScreenshotRequest &request, const ScreenshotConfig &config = {});

} // namespace ps::app
