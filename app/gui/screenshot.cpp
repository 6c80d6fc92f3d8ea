#include "app/gui/screenshot.h"

#include "app/gui/mainwindow.h"
#include "views/common/workspace.h"
#include "views/config/configureworkspace.h"

#include <QApplication>
#include <QBuffer>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPixmap>
#include <QRegularExpression>
#include <QSaveFile>

#include <cstdio>

namespace ps::app {

namespace {

// Lets background work finish (at most 120 s), debounced work started at once; false on timeout.
bool settle(views::Workspace &ws)
{
    QElapsedTimer timer;
    timer.start();
    do {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        ws.flushDeferred();
    } while (ws.isBusy() && timer.elapsed() < 120000);
    return !ws.isBusy();
}

} // namespace

int runScreenshot(MainWindow &window, const ScreenshotRequest &request, const ScreenshotConfig &config)
{
    if (request.outFile.isEmpty()) {
        std::fprintf(stderr, "error: --screenshot needs --out FILE.png\n");
        return 2;
    }
    const auto m = QRegularExpression("^(\\d+)x(\\d+)$").match(request.size);
    if (!m.hasMatch()) {
        std::fprintf(stderr, "error: --size must be WxH, e.g. 1600x1000 (got '%s')\n", qPrintable(request.size));
        return 2;
    }
    // With a config the arguments are its Hydra overrides; otherwise they are files to open.
    for (const QString &path : config.name.isEmpty() ? request.paths : QStringList{}) {
        if (!QFileInfo::exists(path)) {
            std::fprintf(stderr, "error: no such file or folder: %s\n", qPrintable(path));
            return 2;
        }
    }
    views::Workspace *ws = window.workspace(request.workspace);
    if (!ws) {
        std::fprintf(stderr, "error: unknown workspace '%s' (expected configure or timeline)\n",
                     qPrintable(request.workspace));
        return 2;
    }
    window.resize(m.captured(1).toInt(), m.captured(2).toInt());
    window.show();
    auto *configure = qobject_cast<views::ConfigureWorkspace *>(ws);
    if (!config.name.isEmpty()) {
        if (!configure || config.dirs.isEmpty()) {
            std::fprintf(stderr, "error: --config-name needs --screenshot configure and --config-dir DIR\n");
            return 2;
        }
        configure->openConfig(config.dirs, config.name, request.paths);
    } else if (!request.paths.isEmpty()) {
        window.openPaths(request.paths);
    }
    window.showWorkspace(ws->title());

    // Let background loads finish and the layout settle before grabbing.
    if (!settle(*ws)) {
        std::fprintf(stderr, "error: loading did not finish within 120 s\n");
        return 1;
    }
    if (!request.tab.isEmpty() && !window.showTab(request.tab)) {
        std::fprintf(stderr, "error: the %s workspace has no tab '%s'\n", qPrintable(request.workspace),
                     qPrintable(request.tab));
        return 2;
    }
    settle(*ws); // what the tab starts when shown (the Memory tab reads a snapshot)
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents(QEventLoop::AllEvents, 20);

    const QPixmap pixmap = window.grab();
    QSaveFile file(request.outFile); // atomic: temp file + rename
    if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit()) {
        std::fprintf(stderr, "error: cannot write %s: %s\n", qPrintable(request.outFile),
                     qPrintable(file.errorString()));
        return 1;
    }
    return 0;
}

} // namespace ps::app
