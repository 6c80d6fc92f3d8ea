#pragma once
// The Configure workspace's right-hand side: what the engine makes of the session, one tab each:
// the composed YAML with provenance, the diff against the preset, the diagnostics, the launch
// plan, the override list and the defaults tree. Each is fed the session's latest result
// (showResult); the override list and the defaults tree also edit the session.

#include "core/configedit/sessionresult.h"
#include "views/config/fieldproblem.h"

#include <QList>
#include <QTabWidget>

#include <string>

namespace ps::views {

class ConfigSession;
class DefaultsTreePane;
class DiagnosticsPane;
class DiffPane;
class LaunchPlanPane;
class OverridesPane;
class YamlPane;

class ConfigurePanes : public QTabWidget
{
    Q_OBJECT
public:
    ConfigurePanes(ConfigSession *session, QWidget *parent);

    // A new result: every pane shows it. `revealKey` (non-empty) scrolls the YAML to that key.
    void showResult(const core::configedit::SessionResultPtr &result, const std::string &revealKey = {});
    // Form fields holding invalid text, listed in Diagnostics as errors at their keys.
    void setFieldProblems(const QList<FieldProblem> &problems);
    // Shows the YAML line of `key`; false when the composed config has no such key.
    bool revealKey(const std::string &key);
    void showDiagnostics();

    YamlPane *yaml() const { return m_yaml; }
    DiffPane *diff() const { return m_diff; }
    DiagnosticsPane *diagnostics() const { return m_diagnostics; }
    LaunchPlanPane *launchPlan() const { return m_launch; }
    OverridesPane *overrides() const { return m_overrides; }
    DefaultsTreePane *defaults() const { return m_defaults; }

signals:
    // A diagnostic was activated: the control (or YAML line) of its key should take the focus.
    void keyActivated(const QString &key);

private:
    void updateDiagnosticsTitle();

    YamlPane *m_yaml;
    DiffPane *m_diff;
    DiagnosticsPane *m_diagnostics;
    LaunchPlanPane *m_launch;
    OverridesPane *m_overrides;
    DefaultsTreePane *m_defaults;
};

} // namespace ps::views
