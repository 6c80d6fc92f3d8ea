#pragma once
// Facts of the launch that the config cannot know: the workers' interpreter, the RLinf checkout
// and log path on the cluster, the Ray session directory, node and GPU counts. They shape the
// launch plan and the exports, not the composed config, so they are not undoable edits.

#include <QWidget>

class QFormLayout;
class QLineEdit;
class QSpinBox;

namespace ps::views {

class ConfigSession;

class LaunchSettingsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LaunchSettingsPanel(ConfigSession *session, QWidget *parent = nullptr);
    // Shows the session's current settings.
    void showSettings();
    // Shows only the settings the framework's launch uses: the interpreter, checkout, driver
    // cwd, log path and experiment are RLinf's (verl's plan needs none of them).
    void showFramework(bool rlinf);
    bool isRowShown(QWidget *field) const;

private:
    void commit();

    ConfigSession *m_session;
    QFormLayout *m_form;
    QLineEdit *m_python, *m_repo, *m_cwd, *m_logPath, *m_experiment, *m_raySession, *m_remoteConfig, *m_workingDir;
    QSpinBox *m_nodes, *m_gpus;
};

} // namespace ps::views
