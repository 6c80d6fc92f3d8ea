#pragma once
// The Configure workspace: compose, check and export profiling configs. A session
// (configsession.h) holds the base composition (config root, primary config, preset) and the
// user's edits as Hydra overrides; the panels on the left edit it, the panes on the right show
// the engine's view of it (composed YAML with provenance, diff against the preset, diagnostics,
// launch plan, override list). Composition and validation run off the GUI thread.

#include "core/configedit/sessionresult.h"
#include "views/common/workspace.h"

#include <functional>
#include <string>

class QAction;
class QLabel;
class QComboBox;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QToolButton;

namespace ps::views {

class ConfigPanel;
class ConfigSession;
class DefaultsTreePane;
class DiagnosticsPane;
class DiffPane;
class EmptyState;
class LaunchPlanPane;
class LaunchSettingsPanel;
class NsightPanel;
class OverridesPane;
class RLinfGeneralPanel;
class RocprofPanel;
class ScheduleHelper;
class StepsEditor;
class VerlGlobalPanel;
class VerlHooksPanel;
class VerlRolloutProfilerPanel;
class VerlRolesPanel;
class VerlToolPanel;
class WorkerGroupsPanel;
class OutputDirPanel;
class YamlPane;

class ConfigureWorkspace : public Workspace
{
    Q_OBJECT
public:
    explicit ConfigureWorkspace(QWidget *parent = nullptr);
    ~ConfigureWorkspace() override;

    QString title() const override { return QStringLiteral("Configure"); }
    bool accepts(const QString &path) const override;
    // Opens the first YAML path as the primary config (its folder is the config root).
    void openPaths(const QStringList &paths) override;
    bool isBusy() const override;
    QList<QAction *> editActions() const override { return {m_undoAction, m_redoAction}; }
    bool confirmClose() override;

    // Opens `configName` from `configDirs` with `edits` as the first edits (not undoable: they
    // are the starting point, as the command line gives them) and an optional preset id
    // (recipes.h). RLinf configs get EMBODIED_PATH set to the folder above a `config` root.
    void openConfig(const QStringList &configDirs, const QString &configName, const QStringList &edits = {},
                    const QString &presetId = {});
    // Applies a preset (undoable); empty id removes it.
    void applyPreset(const QString &presetId);

    QString currentPath() const { return m_path; }
    ConfigSession *session() const { return m_session; }
    core::configedit::SessionResultPtr result() const;

    // Exports, as the Export menu runs them (tests call these with explicit paths).
    QString overridesText() const;
    QString rayJobText() const;
    // Empty string on success, otherwise the reason.
    QString saveYaml(const QString &path, bool minimal);
    QString saveLaunchScript(const QString &path);
    // The bash script that gathers the run's reports from the nodes (collect.sh HOST...).
    QString saveCollectScript(const QString &path);
    QString saveRayDigestJob(const QString &path);
    QString saveAnalysisExport(const QString &path, std::string core::profiling::Exports::*text);

    // Focuses the control that edits `key` (or the YAML line of the key); false if neither exists.
    bool focusKey(const QString &key);

    // Replaces the "unsaved changes" question (tests); returns Save, Discard or Cancel.
    void setCloseQuestion(std::function<int()> ask) { m_ask = std::move(ask); }

    // Panels and panes, for tests and screenshots.
    RLinfGeneralPanel *rlinfGeneral() const { return m_rlinfGeneral; }
    WorkerGroupsPanel *workerGroups() const { return m_workerGroups; }
    StepsEditor *rlinfSteps() const { return m_rlinfSteps; }
    OutputDirPanel *rlinfOutputDir() const { return m_rlinfOutput; }
    NsightPanel *rlinfNsight() const { return m_rlinfNsight; }
    RocprofPanel *rocprof() const { return m_rocprof; }
    VerlGlobalPanel *verlGlobal() const { return m_verlGlobal; }
    StepsEditor *verlSteps() const { return m_verlSteps; }
    OutputDirPanel *verlOutputDir() const { return m_verlOutput; }
    VerlRolesPanel *verlRoles() const { return m_verlRoles; }
    NsightPanel *verlWorkerNsight() const { return m_verlWorkerNsight; }
    NsightPanel *verlControllerNsight() const { return m_verlControllerNsight; }
    VerlToolPanel *verlTools() const { return m_verlTools; }
    VerlHooksPanel *verlHooks() const { return m_verlHooks; }
    VerlRolloutProfilerPanel *verlRollout() const { return m_verlRollout; }
    // Header: the verl release whose rules apply ("verl 0.9 · detected") and its picker, which
    // overrides the detection as the CLI's --verl-version does.
    QLabel *versionLabel() const { return m_version; }
    QComboBox *versionPicker() const { return m_versionPick; }
    ScheduleHelper *scheduleHelper() const { return m_schedule; }
    LaunchSettingsPanel *launchSettings() const { return m_launchSettings; }
    YamlPane *yamlPane() const { return m_yaml; }
    DiffPane *diffPane() const { return m_diff; }
    DiagnosticsPane *diagnosticsPane() const { return m_diagnostics; }
    LaunchPlanPane *launchPlanPane() const { return m_launch; }
    OverridesPane *overridesPane() const { return m_overrides; }
    DefaultsTreePane *defaultsTree() const { return m_defaults; }
    QTabWidget *paneTabs() const { return m_panes; }
    QTabWidget *panelTabs() const { return m_panels; }

private:
    QWidget *buildStartPage();
    QWidget *buildEditor();
    QWidget *buildHeader();
    QToolButton *undoRedoButton(QWidget *parent, bool undo);
    QWidget *buildProfilerPage();
    QWidget *buildBackendPage();
    void buildLivePanes(QSplitter *split);
    QWidget *scrolled(QWidget *content);
    void showResult(const core::configedit::SessionResultPtr &r);
    void updateHeader();
    void updateDiagnosticsTab();
    void updateFieldProblems();
    void updateVersion(const core::configedit::SessionResult *r);
    void buildVersionPicker(QWidget *bar, QLayout *row);
    QWidget *buildVerlPage();
    void exportMenuTriggered(const QString &id);
    QString suggestedExportName(const QString &id) const;
    QString saveScript(const QString &path, const std::string &text);
    // Why nothing may be exported now ("steps: fix …" while a field holds invalid text), or "".
    QString exportBlocker() const;
    void reportSaved(const QString &path);
    QList<ConfigPanel *> panels() const;

    ConfigSession *m_session;
    QStackedWidget *m_stack;
    EmptyState *m_empty = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QAction *m_undoAction = nullptr, *m_redoAction = nullptr;
    QComboBox *m_preset = nullptr;
    QLabel *m_version = nullptr;
    QComboBox *m_versionPick = nullptr;
    QWidget *m_hooksSection = nullptr, *m_rolloutSection = nullptr;
    QTabWidget *m_panels = nullptr;
    QTabWidget *m_panes = nullptr;
    QStackedWidget *m_profilerStack = nullptr;
    QStackedWidget *m_backendStack = nullptr;
    QWidget *m_rlinfPage = nullptr, *m_verlPage = nullptr, *m_unknownPage = nullptr;
    QWidget *m_nsightPage = nullptr, *m_rocprofPage = nullptr, *m_verlNsysPage = nullptr;

    RLinfGeneralPanel *m_rlinfGeneral = nullptr;
    WorkerGroupsPanel *m_workerGroups = nullptr;
    StepsEditor *m_rlinfSteps = nullptr;
    OutputDirPanel *m_rlinfOutput = nullptr;
    NsightPanel *m_rlinfNsight = nullptr;
    RocprofPanel *m_rocprof = nullptr;
    VerlGlobalPanel *m_verlGlobal = nullptr;
    StepsEditor *m_verlSteps = nullptr;
    OutputDirPanel *m_verlOutput = nullptr;
    VerlRolesPanel *m_verlRoles = nullptr;
    NsightPanel *m_verlWorkerNsight = nullptr;
    NsightPanel *m_verlControllerNsight = nullptr;
    VerlToolPanel *m_verlTools = nullptr;
    VerlHooksPanel *m_verlHooks = nullptr;
    VerlRolloutProfilerPanel *m_verlRollout = nullptr;
    ScheduleHelper *m_schedule = nullptr;
    LaunchSettingsPanel *m_launchSettings = nullptr;

    YamlPane *m_yaml = nullptr;
    DiffPane *m_diff = nullptr;
    DiagnosticsPane *m_diagnostics = nullptr;
    LaunchPlanPane *m_launch = nullptr;
    OverridesPane *m_overrides = nullptr;
    DefaultsTreePane *m_defaults = nullptr;

    QString m_path;
    std::function<int()> m_ask;
    bool m_revealProfiling = false; // scroll the YAML pane to the profiling keys on the first result
};

} // namespace ps::views
