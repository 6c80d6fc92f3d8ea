#pragma once
// What the Configure workspace exports: the composed or minimal YAML, the launch, collect and Ray
// digest scripts (each written atomically, executable), the overrides and the `ray job submit`
// line (copied). Each is the engine's export for the session's base + overrides
// (core/profiling/exporters.h). An export waits while a form field holds text that is not a
// valid value (the config would not be what the form shows); one made while the engine's errors
// stand is saved and flagged. Saving counts as saving the session's edits (its undo stack is
// clean after).

#include "core/profiling/analysis.h"

#include <QObject>
#include <QString>

#include <functional>
#include <string>

class QMenu;
class QWidget;

namespace ps::views {

class ConfigSession;
class DiagnosticsPane;

class ConfigureExports : public QObject
{
    Q_OBJECT
public:
    // `dialogs` parents the save dialogs and warnings; `configPath` names the open config, for
    // the names a save dialog suggests.
    ConfigureExports(ConfigSession *session, const DiagnosticsPane *diagnostics, QWidget *dialogs,
                     std::function<QString()> configPath);

    QString overridesText() const;
    QString rayJobText() const;
    // Each returns "" on success, otherwise the reason nothing was written.
    QString saveYaml(const QString &path, bool minimal);
    QString saveLaunchScript(const QString &path);
    // The bash script that gathers the run's reports from the nodes (collect.sh HOST...).
    QString saveCollectScript(const QString &path);
    QString saveRayDigestJob(const QString &path);
    QString saveAnalysisExport(const QString &path, std::string core::profiling::Exports::*text);

    // Why nothing may be exported now ("2 form fields hold text …"), or "".
    QString blocker() const;
    // What a save dialog suggests for export `id`: named after the config ("ppo_trainer.composed.yaml").
    QString suggestedName(const QString &id) const;
    // The Export menu: one action per export, each asking where to save (or copying).
    void fillMenu(QMenu *menu);
    // Asks where to save the composed YAML and saves it; false when the user cancelled or the
    // save failed (said in a warning).
    bool saveYamlInteractively();

signals:
    void statusMessage(const QString &text, int timeoutMs);
    // An export was refused because of invalid form fields: their list should be shown.
    void diagnosticsWanted();

private:
    void run(const QString &id);
    QString saveScript(const QString &path, const std::string &text);
    void reportSaved(const QString &path);

    ConfigSession *m_session;
    const DiagnosticsPane *m_diagnostics;
    QWidget *m_dialogs;
    std::function<QString()> m_configPath;
};

} // namespace ps::views
