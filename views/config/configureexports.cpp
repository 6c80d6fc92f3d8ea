#include "views/config/configureexports.h"

#include "core/common/atomicfile.h"
#include "core/configedit/launchscript.h"
#include "core/profiling/exporters.h"
#include "views/common/filedialogs.h"
#include "views/config/configsession.h"
#include "views/config/diagnosticspane.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QUndoStack>

#include <utility>

namespace ps::views {

using namespace core::configedit;

ConfigureExports::ConfigureExports(ConfigSession *session, const DiagnosticsPane *diagnostics, QWidget *dialogs,
                                   std::function<QString()> configPath)
    : QObject(dialogs), m_session(session), m_diagnostics(diagnostics), m_dialogs(dialogs),
      m_configPath(std::move(configPath))
{
}

QString ConfigureExports::overridesText() const
{
    const SessionResultPtr r = m_session->result();
    if (r && r->analysis)
        return QString::fromStdString(r->analysis->exports.overrides);
    return QString::fromStdString(core::profiling::exportOverrides(m_session->allOverrides()));
}

QString ConfigureExports::rayJobText() const
{
    const SessionResultPtr r = m_session->result();
    return r && r->analysis ? QString::fromStdString(r->analysis->exports.rayJob) : QString();
}

QString ConfigureExports::blocker() const
{
    const int n = m_diagnostics->fieldProblemCount();
    if (n == 0)
        return QString();
    return QString("%1 form field%2 hold%3 text that is not a valid value, so the config would not be what the "
                   "form shows. Fix or clear %4 (listed in Diagnostics) and export again.")
        .arg(n)
        .arg(n == 1 ? "" : "s", n == 1 ? "s" : "", n == 1 ? "it" : "them");
}

// "Saved X", flagged when the engine's errors stand: the export is what the user asked for, and
// they are told it will not run as it is.
void ConfigureExports::reportSaved(const QString &path)
{
    const int errors = m_diagnostics->errorCount();
    emit statusMessage(
        errors
            ? QString("Saved %1 — %2 error%3 stand, see Diagnostics").arg(path).arg(errors).arg(errors == 1 ? "" : "s")
            : "Saved " + path,
        errors ? 15000 : 5000);
}

QString ConfigureExports::saveYaml(const QString &path, bool minimal)
{
    const SessionResultPtr r = m_session->result();
    if (QString why = blocker(); !why.isEmpty())
        return why;
    if (!r || !r->composed)
        return "the config does not compose";
    std::string text = r->yaml;
    if (minimal) {
        // Made by the background job with the rest of the result (sessionjob.cpp).
        if (!r->analysis || !r->analysis->exports.yamlMinimalError.empty())
            return QString::fromStdString(r->analysis ? r->analysis->exports.yamlMinimalError
                                                      : std::string("the config does not compose"));
        text = r->analysis->exports.yamlMinimal;
    }
    const std::string err = core::writeFileAtomically(path.toStdString(), text);
    if (!err.empty())
        return QString::fromStdString(err);
    m_session->undoStack()->setClean();
    reportSaved(path);
    return QString();
}

QString ConfigureExports::saveLaunchScript(const QString &path)
{
    const SessionResultPtr r = m_session->result();
    if (QString why = blocker(); !why.isEmpty())
        return why;
    if (!r || !r->analysis)
        return "the config does not compose";
    return saveScript(path, launchScript(*r->analysis, m_session->base().configName));
}

QString ConfigureExports::saveCollectScript(const QString &path)
{
    return saveAnalysisExport(path, &core::profiling::Exports::collect);
}

QString ConfigureExports::saveRayDigestJob(const QString &path)
{
    return saveAnalysisExport(path, &core::profiling::Exports::rayDigest);
}

// Saves one of the analysis' exports as an executable script.
QString ConfigureExports::saveAnalysisExport(const QString &path, std::string core::profiling::Exports::*text)
{
    const SessionResultPtr r = m_session->result();
    if (QString why = blocker(); !why.isEmpty())
        return why;
    if (!r || !r->analysis)
        return "the config does not compose";
    return saveScript(path, r->analysis->exports.*text);
}

// Writes an executable script atomically; exporting counts as saving the session's edits.
QString ConfigureExports::saveScript(const QString &path, const std::string &text)
{
    const std::string err = core::writeFileAtomically(path.toStdString(), text);
    if (!err.empty())
        return QString::fromStdString(err);
    QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner | QFileDevice::ExeGroup);
    m_session->undoStack()->setClean();
    reportSaved(path);
    return QString();
}

QString ConfigureExports::suggestedName(const QString &id) const
{
    const QString path = m_configPath();
    const QString config = path.isEmpty() ? QStringLiteral("config") : QFileInfo(path).completeBaseName();
    if (id == "collect")
        return QStringLiteral("collect.sh");
    if (id == "ray-digest")
        return QStringLiteral("profstudio_digest_job.py");
    if (id == "script")
        return QStringLiteral("launch_%1.sh").arg(config);
    return config + (id == "yaml-minimal" ? QStringLiteral(".profiling.yaml") : QStringLiteral(".composed.yaml"));
}

void ConfigureExports::fillMenu(QMenu *menu)
{
    for (auto [id, label] : {std::pair{"yaml", "Save YAML…"}, std::pair{"yaml-minimal", "Save minimal YAML…"},
                             std::pair{"overrides", "Copy overrides"}, std::pair{"ray-job", "Copy ray job submit line"},
                             std::pair{"script", "Save launch script…"},
                             std::pair{"collect", "Save collect script (gather digests from the nodes)…"},
                             std::pair{"ray-digest", "Save Ray digest job (digest the reports on the nodes)…"}}) {
        const QString key = id;
        menu->addAction(label, this, [this, key] { run(key); });
    }
}

void ConfigureExports::run(const QString &id)
{
    if (QString why = blocker(); !why.isEmpty()) {
        emit diagnosticsWanted();
        QMessageBox::warning(m_dialogs, "Not exported", why);
        return;
    }
    if (id == "overrides" || id == "ray-job") {
        QApplication::clipboard()->setText(id == "overrides" ? overridesText() : rayJobText());
        emit statusMessage(id == "overrides" ? "Copied the overrides" : "Copied the ray job submit line", 4000);
        return;
    }
    const bool script = id == "script" || id == "collect" || id == "ray-digest";
    const QString title = id == "script"       ? "Save Launch Script"
                          : id == "collect"    ? "Save Collect Script"
                          : id == "ray-digest" ? "Save Ray Digest Job"
                                               : "Save YAML";
    const QString filter = id == "ray-digest" ? "Python (*.py)" : script ? "Shell scripts (*.sh)" : "YAML (*.yaml)";
    const QString path = saveFileName(m_dialogs, script ? "scripts" : "yaml", title, suggestedName(id), filter);
    if (path.isEmpty())
        return;
    const QString err = id == "script"       ? saveLaunchScript(path)
                        : id == "collect"    ? saveCollectScript(path)
                        : id == "ray-digest" ? saveRayDigestJob(path)
                                             : saveYaml(path, id == "yaml-minimal");
    if (!err.isEmpty())
        QMessageBox::warning(m_dialogs, "Export failed", err);
}

bool ConfigureExports::saveYamlInteractively()
{
    const QString path = saveFileName(m_dialogs, "yaml", "Save YAML", suggestedName("yaml"), "YAML (*.yaml)");
    if (path.isEmpty())
        return false;
    const QString err = saveYaml(path, false);
    if (!err.isEmpty())
        QMessageBox::warning(m_dialogs, "Export failed", err);
    return err.isEmpty();
}

} // namespace ps::views
