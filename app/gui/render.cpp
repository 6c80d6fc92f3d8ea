#include "app/gui/render.h"

#include "views/scene/timeparse.h"
#include "views/timeline/timelinecanvas.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/timelineworkspace.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>
#include <QRegularExpression>
#include <QSaveFile>

#include <cstdio>

namespace ps::app {

int runRender(const RenderRequest &request)
{
    if (request.outFile.isEmpty()) {
        std::fprintf(stderr, "error: --render needs --out FILE.png\n");
        return 2;
    }
    if (request.reports.isEmpty()) {
        std::fprintf(stderr, "error: --render needs report files or folders\n");
        return 2;
    }
    const auto sm = QRegularExpression(QStringLiteral("^(\\d+)x(\\d+)$")).match(request.size);
    if (!sm.hasMatch() || sm.captured(1).toInt() < 400 || sm.captured(2).toInt() < 100) {
        std::fprintf(stderr, "error: --size must be WxH, at least 400x100 (got '%s')\n", qPrintable(request.size));
        return 2;
    }
    std::optional<std::pair<int64_t, int64_t>> range;
    if (!request.range.isEmpty() && !(range = views::parseTimeRange(request.range))) {
        std::fprintf(stderr, "error: --range must be START:END with START < END, e.g. 0:50ms (got '%s')\n",
                     qPrintable(request.range));
        return 2;
    }

    views::TimelineWorkspace workspace;
    QString failures;
    QObject::connect(&workspace, &views::Workspace::statusMessage, [&failures](const QString &text, int) {
        if (text.contains(QLatin1String("could not be loaded")) || text.startsWith(QLatin1String("Alignment")))
            failures += text + QLatin1Char('\n');
    });
    if (!request.align.isEmpty() && !workspace.setAlignment(request.align)) {
        std::fprintf(stderr, "error: bad --align '%s': %s", qPrintable(request.align), qPrintable(failures));
        return 2;
    }
    workspace.openPaths(request.reports);
    QElapsedTimer timer;
    timer.start();
    while (workspace.isBusy() && timer.elapsed() < 600000) {
        QApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
        workspace.flushDeferred();
    }
    if (workspace.isBusy()) {
        std::fprintf(stderr, "error: loading did not finish within 600 s\n");
        return 1;
    }
    if (workspace.reports().empty()) {
        std::fprintf(stderr, "error: no report could be loaded\n%s", qPrintable(failures));
        return 1;
    }
    if (!failures.isEmpty())
        std::fprintf(stderr, "warning: %s", qPrintable(failures));
    for (const QString &w : workspace.alignmentWarnings())
        std::fprintf(stderr, "warning: %s\n", qPrintable(w));

    // A view of exactly the requested size, showing the workspace's scene.
    views::TimelineView view;
    view.resize(sm.captured(1).toInt(), sm.captured(2).toInt());
    view.canvas()->setScene(workspace.scene());
    view.show();
    if (range)
        view.canvas()->setWindow({range->first, range->second});
    else
        view.canvas()->fitAll();
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    const QPixmap pixmap = view.grab();
    QSaveFile file(request.outFile);
    if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit()) {
        std::fprintf(stderr, "error: cannot write %s: %s\n", qPrintable(request.outFile),
                     qPrintable(file.errorString()));
        return 1;
    }
    std::printf("%s: %zu report(s), %d x %d\n", qPrintable(request.outFile), workspace.reports().size(), pixmap.width(),
                pixmap.height());
    return 0;
}

} // namespace ps::app
