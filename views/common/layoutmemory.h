#pragma once
// Layout kept per screen size: splitter sizes a user dragged on a laptop's 1366x768 are not what a
// 1920x1080 monitor should get, so each screen size returns as it was left, and a screen size
// never seen starts from the defaults the view computes for it.
//
// Settings keys: "layout/<name>/<width>x<height>" of the screen's available area.

#include <QList>
#include <QObject>
#include <QSize>
#include <QVariant>

#include <functional>

class QSplitter;
class QWidget;

namespace ps::views {

class LayoutMemory : public QObject
{
    Q_OBJECT
public:
    // Default sizes for a splitter of `length` pixels on a screen of `screen`.
    using Defaults = std::function<QList<int>(int length, QSize screen)>;

    // From its first show, `splitter` takes the sizes remembered for its screen (or `defaults`),
    // and every drag is remembered for that screen.
    static void rememberSplitter(QSplitter *splitter, const QString &name, Defaults defaults);

    static QString settingsKey(const QString &name, QSize screen);
    // The available size of the screen `widget` shows on (the primary screen before it shows).
    static QSize screenSizeOf(const QWidget *widget);
    static QVariant value(const QString &name, QSize screen, const QVariant &fallback = {});
    static void setValue(const QString &name, QSize screen, const QVariant &value);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    LayoutMemory(QSplitter *splitter, QString name, Defaults defaults);
    void restore();
    void save();

    QSplitter *m_splitter;
    QString m_name;
    Defaults m_defaults;
    QSize m_screen;          // the screen restored for; empty until the first show
    bool m_settling = false; // shown, not painted yet: the layout may still resize it
};

} // namespace ps::views
