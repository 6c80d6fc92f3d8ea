#pragma once
// The Configure workspace: compose, check and export profiling configs. A session
// (configsession.h) holds the base composition (config root, primary config, preset) and the
// user's edits as Hydra overrides; the panels on the left edit it (configurepanels.h), the panes
// on the right show the engine's view of it (configurepanes.h: composed YAML with provenance,
// diff against the preset, diagnostics, launch plan, override list, defaults tree), and the
// Export menu writes it out (configureexports.h). This class is the header (title, release,
// preset, undo/redo, Export, status) and the wiring between them. Composition and validation
// run off the GUI thread.

#include "core/configedit/sessionresult.h"
#include "views/common/workspace.h"

#include <functional>
#include <string>

class QAction;
class QLabel;
class QComboBox;
class QStackedWidget;
class QToolButton;

namespace ps::views {

class ConfigSession;
class ConfigureExports;
class ConfigurePanels;
class ConfigurePanes;
class EmptyState;

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

    // The exports, as the Export menu runs them (tests call them with explicit paths).
    ConfigureExports *exports() const { return m_exports; }

    // Focuses the control that edits `key` (or the YAML line of the key); false if neither exists.
    bool focusKey(const QString &key);

    // Replaces the "unsaved changes" question (tests); returns Save, Discard or Cancel.
    void setCloseQuestion(std::function<int()> ask) { m_ask = std::move(ask); }

    // The panels that edit the session (tabs on the left) and the panes that show what the
    // engine makes of it (tabs on the right). The header's verl release is the label
    // "verlVersion" and its picker the combo "verlVersionPick".
    ConfigurePanels *panels() const { return m_panels; }
    ConfigurePanes *panes() const { return m_panes; }

private:
    QWidget *buildStartPage();
    QWidget *buildEditor();
    QWidget *buildHeader();
    QToolButton *undoRedoButton(QWidget *parent, bool undo);
    void showResult(const core::configedit::SessionResultPtr &r);
    void updateHeader();
    void updateFieldProblems();
    void updateVersion(const core::configedit::SessionResult *r);
    void buildVersionPicker(QWidget *bar, QLayout *row);

    ConfigSession *m_session;
    ConfigureExports *m_exports = nullptr;
    QStackedWidget *m_stack;
    EmptyState *m_empty = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
    QAction *m_undoAction = nullptr, *m_redoAction = nullptr;
    QComboBox *m_preset = nullptr;
    QLabel *m_version = nullptr;
    QComboBox *m_versionPick = nullptr;
    ConfigurePanels *m_panels = nullptr;
    ConfigurePanes *m_panes = nullptr;

    QString m_path;
    std::function<int()> m_ask;
    bool m_revealProfiling = false; // scroll the YAML pane to the profiling keys on the first result
};

} // namespace ps::views
