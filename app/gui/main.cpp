// profstudio: the desktop app. `profstudio [PATH...]` opens reports and configs;
// `--screenshot WORKSPACE --out FILE.png` renders the window headless (QT_QPA_PLATFORM=offscreen
// is chosen automatically when there is no display) and exits.

#include "app/gui/mainwindow.h"
#include "app/gui/screenshot.h"
#include "core/version.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char **argv)
{
    // Headless machines (CI, a login node) have no display: render offscreen instead of failing.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setApplicationName("ProfStudio");
    QApplication::setOrganizationName("ProfStudio");
    QApplication::setApplicationVersion(ps::core::versionString());

    QCommandLineParser parser;
    parser.setApplicationDescription("Profiling configs and many-report timelines for distributed RL training.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("paths", "Reports, report folders or configs to open.", "[PATH...]");
    QCommandLineOption screenshot("screenshot", "Render WORKSPACE (configure or timeline) to --out and exit.",
                                  "WORKSPACE");
    QCommandLineOption out("out", "The PNG file --screenshot writes.", "FILE");
    QCommandLineOption size("size", "Window size for --screenshot (default 1600x1000).", "WxH", "1600x1000");
    parser.addOptions({screenshot, out, size});
    parser.process(app);

    ps::app::MainWindow window;
    if (parser.isSet(screenshot)) {
        ps::app::ScreenshotRequest req;
        req.workspace = parser.value(screenshot);
        req.outFile = parser.value(out);
        req.size = parser.value(size);
        req.paths = parser.positionalArguments();
        return ps::app::runScreenshot(window, req);
    }
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openPaths(parser.positionalArguments());
    return app.exec();
}
