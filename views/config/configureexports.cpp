// The Configure workspace's exports and its unsaved-changes guard. Every file is written
// atomically (temp file + rename); the texts are the engine's exports for base + overrides.
#include "views/config/configureworkspace.h"

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
#include <QMessageBox>
#include <QUndoStack>

namespace ps::views {

using namespace core::configedit;

QString ConfigureWorkspace::overridesText() const
{
    const SessionResultPtr r = m_session->result();
    if (r && r->analysis)
        return QString::fromStdString(r->analysis->exports.overrides);
    return QString::fromStdString(core::profiling::exportOverrides(m_session->allOverrides()));
}

QString ConfigureWorkspace::rayJobText() const
{
    const SessionResultPtr r = m_session->result();
    return r && r->analysis ? QString::fromStdString(r->analysis->exports.rayJob) : QString();
}

QString ConfigureWorkspace::exportBlocker() const
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
void ConfigureWorkspace::reportSaved(const QString &path)
{
    const int errors = m_diagnostics->errorCount();
    emit statusMessage(
        errors
            ? QString("Saved %1 — %2 error%3 stand, see Diagnostics").arg(path).arg(errors).arg(errors == 1 ? "" : "s")
            : "Saved " + path,
        errors ? 15000 : 5000);
}

QString ConfigureWorkspace::saveYaml(const QString &path, bool minimal)
{
    const SessionResultPtr r = m_session->result();
    if (QString blocker = exportBlocker(); !blocker.isEmpty())
        return blocker;
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

QString ConfigureWorkspace::saveLaunchScript(const QString &path)
{
    const SessionResultPtr r = m_session->result();
    if (QString blocker = exportBlocker(); !blocker.isEmpty())
        return blocker;
    if (!r || !r->analysis)
        return "the config does not compose";
    return saveScript(path, launchScript(*r->analysis, m_session->base().configName));
}

QString ConfigureWorkspace::saveCollectScript(const QString &path)
{
    return saveAnalysisExport(path, &core::profiling::Exports::collect);
}

QString ConfigureWorkspace::saveRayDigestJob(const QString &path)
{
    return saveAnalysisExport(path, &core::profiling::Exports::rayDigest);
}

// Saves one of the analysis' exports as an executable script.
QString ConfigureWorkspace::saveAnalysisExport(const QString &path, std::string core::profiling::Exports::*text)
{
    const SessionResultPtr r = m_session->result();
    if (QString blocker = exportBlocker(); !blocker.isEmpty())
        return blocker;
    if (!r || !r->analysis)
        return "the config does not compose";
    return saveScript(path, r->analysis->exports.*text);
}

// Writes an executable script atomically; exporting counts as saving the session's edits.
QString ConfigureWorkspace::saveScript(const QString &path, const std::string &text)
{
    const std::string err = core::writeFileAtomically(path.toStdString(), text);
    if (!err.empty())
        return QString::fromStdString(err);
    QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner | QFileDevice::ExeGroup);
    m_session->undoStack()->setClean();
    reportSaved(path);
    return QString();
}

// What a save dialog suggests: named after the config ("ppo_trainer.composed.yaml").
QString ConfigureWorkspace::suggestedExportName(const QString &id) const
{
    const QString config = m_path.isEmpty() ? QStringLiteral("config") : QFileInfo(m_path).completeBaseName();
    if (id == "collect")
        return QStringLiteral("collect.sh");
    if (id == "ray-digest")
        return QStringLiteral("profstudio_digest_job.py");
    if (id == "script")
        return QStringLiteral("launch_%1.sh").arg(config);
    return config + (id == "yaml-minimal" ? QStringLiteral(".profiling.yaml") : QStringLiteral(".composed.yaml"));
}

void ConfigureWorkspace::exportMenuTriggered(const QString &id)
{
    if (QString blocker = exportBlocker(); !blocker.isEmpty()) {
        m_panes->setCurrentWidget(m_diagnostics);
        QMessageBox::warning(this, "Not exported", blocker);
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
    const QString path = saveFileName(this, script ? "scripts" : "yaml", title, suggestedExportName(id), filter);
    if (path.isEmpty())
        return;
    const QString err = id == "script"       ? saveLaunchScript(path)
                        : id == "collect"    ? saveCollectScript(path)
                        : id == "ray-digest" ? saveRayDigestJob(path)
                                             : saveYaml(path, id == "yaml-minimal");
    if (!err.isEmpty())
        QMessageBox::warning(this, "Export failed", err);
}

bool ConfigureWorkspace::confirmClose()
{
    if (!m_session->isOpen() || m_session->undoStack()->isClean())
        return true;
    const int answer = m_ask ? m_ask()
                             : QMessageBox::question(this, "Unsaved changes",
                                                     "The profiling config has edits that were not exported. Save "
                                                     "the composed YAML before closing?",
                                                     QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save) {
        const QString path = saveFileName(this, "yaml", "Save YAML", suggestedExportName("yaml"), "YAML (*.yaml)");
        if (path.isEmpty())
            return false;
        const QString err = saveYaml(path, false);
        if (!err.isEmpty()) {
            QMessageBox::warning(this, "Export failed", err);
            return false;
        }
    }
    return true;
}

} // namespace ps::views
