#pragma once
// The engine's diagnostics for the current composition (and the composition error, when it
// does not compose): severity, message, rule id and location. Activating a row asks the
// workspace to focus the control that edits its key, or the YAML line of the key.

#include "core/configedit/sessionresult.h"

#include <QTreeWidget>

namespace ps::views {

class DiagnosticsPane : public QTreeWidget
{
    Q_OBJECT
public:
    explicit DiagnosticsPane(QWidget *parent = nullptr);
    void showResult(const core::configedit::SessionResultPtr &result);
    int errorCount() const { return m_errors; }
    int warningCount() const { return m_warnings; }

signals:
    void keyActivated(const QString &key);

private:
    int m_errors = 0;
    int m_warnings = 0;
};

} // namespace ps::views
