#pragma once
// The page a workspace shows before anything is open: what it does, and buttons for the first
// steps. Never a "TODO": every button does what it says.

#include <QWidget>

class QVBoxLayout;

namespace ps::views {

class EmptyState : public QWidget
{
    Q_OBJECT
public:
    EmptyState(const QString &title, const QString &text, QWidget *parent = nullptr);
    // Adds a button that emits `triggered` with its id when clicked.
    void addAction(const QString &id, const QString &label);

signals:
    void triggered(const QString &id);

private:
    QVBoxLayout *m_buttons;
};

} // namespace ps::views
