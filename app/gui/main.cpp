// profstudio: the desktop app. `profstudio [PATH...]` opens reports and configs;
// `--screenshot WORKSPACE --out FILE.png` renders the window headless (QT_QPA_PLATFORM=offscreen
// is chosen automatically when there is no display) and exits. `--render REPORTS... --out FILE.png`
// renders just the timeline of the reports (app/gui/render.h).

#include "app/gui/mainwindow.h"
#include "app/gui/render.h"
#include "app/gui/screenshot.h"
#include "core/version.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

int main(int argc, char **argv)
{
    // Headless machines (CI, a login node) have no display: render offscreen instead of failing.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
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
    QCommandLineOption size("size", "Window size for --screenshot (default 1600x1000) or --render (1600x900).", "WxH");
    QCommandLineOption render("render", "Render the timeline of the given reports to --out and exit.");
    QCommandLineOption range("range", "--render: the time range shown, e.g. 0:50ms (default: all).", "START:END");
    QCommandLineOption align("align", "--render: utc, start or range:NAME[#K] (default utc).", "SPEC");
    QCommandLineOption configDir("config-dir",
                                 "--screenshot configure: a config root (repeatable); the "
                                 "positional arguments are then Hydra overrides.",
                                 "DIR");
    QCommandLineOption configName("config-name", "--screenshot configure: the primary config in --config-dir.", "NAME");
    QCommandLineOption tab("tab", "Show the workspace's tab NAME (e.g. \"RL Phases\") first.", "NAME");
    parser.addOptions({screenshot, out, size, render, range, align, configDir, configName, tab});
    parser.process(app);

    if (parser.isSet(render)) {
        ps::app::RenderRequest req;
        req.reports = parser.positionalArguments();
        req.outFile = parser.value(out);
        if (parser.isSet(size))
            req.size = parser.value(size);
        req.range = parser.value(range);
        req.align = parser.value(align);
        return ps::app::runRender(req);
    }

    ps::app::MainWindow window;
    if (parser.isSet(screenshot)) {
        ps::app::ScreenshotRequest req;
        req.workspace = parser.value(screenshot);
        req.outFile = parser.value(out);
        req.size = parser.isSet(size) ? parser.value(size) : QStringLiteral("1600x1000");
        req.paths = parser.positionalArguments();
        req.tab = parser.value(tab);
        return ps::app::runScreenshot(window, req, {parser.values(configDir), parser.value(configName)});
    }
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openPaths(parser.positionalArguments());
    if (parser.isSet(tab) && !window.showTab(parser.value(tab)))
        std::fprintf(stderr, "profstudio: the workspace shown has no tab '%s'\n", qPrintable(parser.value(tab)));
    return app.exec();
}
