#pragma once
// The override list: the preset's overrides (part of the baseline, shown greyed) and the user's
// edits, in the order they are applied. This list is the session: undo/redo, the exports and the
// tests all read it. Overrides can also be typed here (any Hydra override) or removed.

#include "core/configedit/sessionresult.h"

#include <QWidget>

class QLineEdit;
class QListWidget;
class QLabel;

namespace ps::views {

class ConfigSession;

class OverridesPane : public QWidget
{
    Q_OBJECT
public:
    OverridesPane(ConfigSession *session, QWidget *parent = nullptr);
    void showState();

    QListWidget *list() const { return m_list; }
    QLineEdit *input() const { return m_input; }
    // Appends a typed override (as the Add button does); false when it does not parse.
    bool addOverride(const QString &text);

private:
    ConfigSession *m_session;
    QListWidget *m_list;
    QLineEdit *m_input;
    QLabel *m_message;
};

} // namespace ps::views
