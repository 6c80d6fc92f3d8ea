#include "views/common/layoutmemory.h"

#include <QEvent>
#include <QGuiApplication>
#include <QScreen>
#include <QSettings>
#include <QSplitter>

namespace ps::views {

LayoutMemory::LayoutMemory(QSplitter *splitter, QString name, Defaults defaults)
    : QObject(splitter), m_splitter(splitter), m_name(std::move(name)), m_defaults(std::move(defaults))
{
    splitter->installEventFilter(this);
    connect(splitter, &QSplitter::splitterMoved, this, &LayoutMemory::save);
}

void LayoutMemory::rememberSplitter(QSplitter *splitter, const QString &name, Defaults defaults)
{
    new LayoutMemory(splitter, name, std::move(defaults));
}

QString LayoutMemory::settingsKey(const QString &name, QSize screen)
{
    return QStringLiteral("layout/%1/%2x%3").arg(name).arg(screen.width()).arg(screen.height());
}

QSize LayoutMemory::screenSizeOf(const QWidget *widget)
{
    const QScreen *screen = widget ? widget->screen() : nullptr;
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    return screen ? screen->availableGeometry().size() : QSize();
}

QVariant LayoutMemory::value(const QString &name, QSize screen, const QVariant &fallback)
{
    return QSettings().value(settingsKey(name, screen), fallback);
}

void LayoutMemory::setValue(const QString &name, QSize screen, const QVariant &value)
{
    QSettings().setValue(settingsKey(name, screen), value);
}

// Restored at the first show, on the screen the window shows on, and again if it is shown on a
// screen of another size. The layout may give the splitter its real length only after the show
// (posted layout requests), so every resize until the first paint is restored for too.
bool LayoutMemory::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_splitter)
        return false;
    if (event->type() == QEvent::Show && screenSizeOf(m_splitter) != m_screen) {
        restore();
        m_settling = true;
    } else if (event->type() == QEvent::Resize && m_settling) {
        restore();
    } else if (event->type() == QEvent::Paint) {
        m_settling = false;
    }
    return false;
}

void LayoutMemory::restore()
{
    m_screen = screenSizeOf(m_splitter);
    const QByteArray state = value(m_name, m_screen).toByteArray();
    if (state.isEmpty() || !m_splitter->restoreState(state)) {
        const int length = m_splitter->orientation() == Qt::Horizontal ? m_splitter->width() : m_splitter->height();
        m_splitter->setSizes(m_defaults(length, m_screen));
    }
}

// Called on the user's drags only: setSizes and restoreState emit no splitterMoved.
void LayoutMemory::save()
{
    if (m_screen.isValid())
        setValue(m_name, m_screen, m_splitter->saveState());
}

} // namespace ps::views
