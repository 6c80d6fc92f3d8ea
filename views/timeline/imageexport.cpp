#include "views/timeline/imageexport.h"

#include "core/common/atomicfile.h"
#include "views/timeline/timelineview.h"

#include <QBuffer>
#include <QPixmap>

namespace ps::views {

QImage grabTimelineImage(TimelineView *view, QSize size)
{
    const QSize onScreen = view->size();
    const bool resized = size.isValid() && !size.isEmpty() && size != onScreen;
    if (resized) {
        view->setUpdatesEnabled(false); // the window does not flicker through the other size
        view->resize(size);
    }
    const QPixmap picture = view->grab();
    if (resized) {
        view->resize(onScreen);
        view->setUpdatesEnabled(true);
    }
    return picture.toImage();
}

QString writeTimelineImage(const QImage &image, const QString &file)
{
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (image.isNull() || !image.save(&buffer, "PNG"))
        return QStringLiteral("%1: the view could not be drawn as PNG").arg(file);
    const std::string error =
        core::writeFileAtomically(file.toStdString(), std::string_view(png.data(), size_t(png.size())));
    return QString::fromStdString(error);
}

QString exportTimelineImage(TimelineView *view, const QString &file, QSize size)
{
    return writeTimelineImage(grabTimelineImage(view, size), file);
}

} // namespace ps::views
