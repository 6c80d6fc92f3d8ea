#include "views/config/configureworkspace.h"

#include "views/common/emptystate.h"
#include "views/common/filedialogs.h"
#include "views/common/undokeys.h"
#include "views/config/configsession.h"
#include "views/config/configureexports.h"
#include "views/config/configurepanels.h"
#include "views/config/configurepanes.h"
#include "views/config/configurestartpage.h"
#include "views/config/recipes.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace ps::views {

using namespace core::configedit;
using core::profiling::Framework;

ConfigureWorkspace::ConfigureWorkspace(QWidget *parent) : Workspace(parent), m_session(new ConfigSession(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);
    m_stack->addWidget(buildStartPage());
    m_stack->addWidget(buildEditor());
    m_exports = new ConfigureExports(m_session, m_panes->diagnostics(), this, [this] { return m_path; });
    m_exports->fillMenu(findChild<QToolButton *>("exportButton")->menu());
    connect(m_exports, &ConfigureExports::statusMessage, this, &Workspace::statusMessage);
    connect(m_exports, &ConfigureExports::diagnosticsWanted, this, [this] { m_panes->showDiagnostics(); });

    connect(m_session, &ConfigSession::resultReady, this, &ConfigureWorkspace::showResult);
    connect(m_session, &ConfigSession::busyChanged, this, [this](bool busy) {
        emit busyChanged(busy);
        updateHeader();
    });
    connect(m_session->undoStack(), &QUndoStack::cleanChanged, this, [this] { updateHeader(); });
    routeUndoKeysToWorkspace(this); // Ctrl+Z in a field without an undo of its own: the session's
    connect(m_panels, &ConfigurePanels::fieldProblemsChanged, this, &ConfigureWorkspace::updateFieldProblems);
}

ConfigureWorkspace::~ConfigureWorkspace()
{
    // The session is a child, destroyed after this class's part of the object: its undo stack
    // and watcher must not call back into a half-destroyed workspace.
    m_session->undoStack()->disconnect(this);
    m_session->disconnect(this);
}

QWidget *ConfigureWorkspace::buildStartPage()
{
    m_empty = configureStartPage(this);
    connect(m_empty, &EmptyState::triggered, this, [this](const QString &id) {
        if (id.startsWith("recent:")) {
            openPaths({id.mid(7)});
            return;
        }
        const QString f =
            openFileName(this, "config", "Open Primary Config", "Hydra configs (*.yaml *.yml);;All files (*)");
        if (f.isEmpty())
            return;
        const QFileInfo fi(f);
        openConfig({fi.absolutePath()}, fi.completeBaseName(), {}, id.startsWith("preset:") ? id.mid(7) : QString());
        emit openedPath(fi.absoluteFilePath());
    });
    return m_empty;
}

void ConfigureWorkspace::buildVersionPicker(QWidget *bar, QLayout *row)
{
    m_version = new QLabel(bar);
    m_version->setObjectName("verlVersion");
    row->addWidget(m_version);
    m_versionPick = new QComboBox(bar);
    m_versionPick->setObjectName("verlVersionPick");
    m_versionPick->addItem("detected", QString());
    for (const char *name : {"legacy", "0.5-0.7.0", "0.7.1", "0.8", "0.9", "main"})
        m_versionPick->addItem(QString("verl ") + name, QString(name));
    m_versionPick->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_versionPick->setMinimumContentsLength(12);
    m_versionPick->setToolTip("The verl release whose rules, tools, panels, file names and launch plan apply, as "
                              "profstudio-cli's --verl-version. \"detected\" reads it from the config's schema.");
    connect(m_versionPick, &QComboBox::activated, this, [this](int index) {
        m_session->setVerlVersion(
            core::profiling::parseVerlVersion(m_versionPick->itemData(index).toString().toStdString()));
    });
    row->addWidget(m_versionPick);
}

// "Undo" / "Redo" with the change it would undo or redo in the tooltip: QUndoStack's own actions
// put the change in the text, and each edit widened the button and the window (1400 -> 1808 px).
QToolButton *ConfigureWorkspace::undoRedoButton(QWidget *parent, bool undo)
{
    QUndoStack *stack = m_session->undoStack();
    auto *action = new QAction(undo ? QStringLiteral("Undo") : QStringLiteral("Redo"), this);
    // Redo answers Ctrl+Shift+Z and Ctrl+Y on every platform (undokeys.h).
    action->setShortcuts(undo ? undoKeys() : redoKeys());
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    action->setEnabled(undo ? stack->canUndo() : stack->canRedo());
    connect(action, &QAction::triggered, stack, undo ? &QUndoStack::undo : &QUndoStack::redo);
    connect(stack, undo ? &QUndoStack::canUndoChanged : &QUndoStack::canRedoChanged, action, &QAction::setEnabled);
    const auto describe = [action, undo](const QString &change) {
        const QString verb = undo ? QStringLiteral("Undo") : QStringLiteral("Redo");
        action->setToolTip(change.isEmpty() ? verb : verb + QStringLiteral(": ") + change);
    };
    describe(undo ? stack->undoText() : stack->redoText());
    connect(stack, undo ? &QUndoStack::undoTextChanged : &QUndoStack::redoTextChanged, action, describe);
    addAction(action);
    (undo ? m_undoAction : m_redoAction) = action;
    auto *button = new QToolButton(parent);
    button->setObjectName(undo ? QStringLiteral("undoButton") : QStringLiteral("redoButton"));
    button->setDefaultAction(action);
    return button;
}

QWidget *ConfigureWorkspace::buildHeader()
{
    auto *bar = new QWidget(this);
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(8, 4, 8, 4);
    m_title = new QLabel(bar);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The title (a config path) and the combos must not set the window's minimum width: the
    // window has to fit a laptop screen whatever the config or preset is called.
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    row->addWidget(m_title, 1);

    m_preset = new QComboBox(bar);
    m_preset->setObjectName("preset");
    m_preset->addItem("No preset", QString());
    for (const Recipe &r : builtinRecipes()) {
        m_preset->addItem(r.label, r.id);
        m_preset->setItemData(m_preset->count() - 1, r.description, Qt::ToolTipRole);
    }
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(14);
    m_preset->setToolTip("Built-in preset applied as the baseline (a group override); the diff pane compares "
                         "against it");
    connect(m_preset, &QComboBox::activated, this,
            [this](int index) { applyPreset(m_preset->itemData(index).toString()); });
    buildVersionPicker(bar, row);
    row->addWidget(new QLabel("Preset:", bar));
    row->addWidget(m_preset);

    row->addWidget(undoRedoButton(bar, true));
    row->addWidget(undoRedoButton(bar, false));

    auto *exportButton = new QToolButton(bar);
    exportButton->setText("Export");
    exportButton->setPopupMode(QToolButton::InstantPopup);
    exportButton->setObjectName("exportButton");
    auto *menu = new QMenu(exportButton); // filled by ConfigureExports, once Diagnostics exists
    exportButton->setMenu(menu);
    row->addWidget(exportButton);

    m_status = new QLabel(bar);
    m_status->setObjectName("composeStatus");
    m_status->setMinimumWidth(160);
    row->addWidget(m_status);
    return bar;
}

QWidget *ConfigureWorkspace::buildEditor()
{
    auto *page = new QWidget(this);
    auto *outer = new QVBoxLayout(page);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(buildHeader());
    auto *split = new QSplitter(Qt::Horizontal, page);
    outer->addWidget(split, 1);
    m_panels = new ConfigurePanels(m_session, split);
    m_panes = new ConfigurePanes(m_session, split);
    connect(m_panes, &ConfigurePanes::keyActivated, this, [this](const QString &key) { focusKey(key); });
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({620, 900});
    return page;
}

bool ConfigureWorkspace::accepts(const QString &path) const
{
    const QFileInfo fi(path);
    const QString suffix = fi.suffix().toLower();
    return fi.isFile() && (suffix == "yaml" || suffix == "yml");
}

void ConfigureWorkspace::openPaths(const QStringList &paths)
{
    if (paths.isEmpty())
        return;
    const QFileInfo fi(paths.first()); // one primary config at a time
    if (!fi.isFile()) {
        emit statusMessage(QString("Cannot open %1: not a file").arg(paths.first()), 10000);
        return;
    }
    openConfig({fi.absolutePath()}, fi.completeBaseName());
    emit openedPath(fi.absoluteFilePath());
}

void ConfigureWorkspace::openConfig(const QStringList &configDirs, const QString &configName, const QStringList &edits,
                                    const QString &presetId)
{
    SessionBase base;
    for (const QString &d : configDirs)
        base.configDirs.push_back(QDir(d).absolutePath().toStdString());
    base.configName = configName.toStdString();
    if (!configDirs.isEmpty()) {
        const QDir root(QDir(configDirs.first()).absolutePath());
        base.primaryPath = root.filePath(configName.endsWith(".yaml") ? configName : configName + ".yaml");
        // RLinf's primary configs search ${oc.env:EMBODIED_PATH}/config; run_embodiment.sh sets it to
        // the folder that holds config/.
        if (root.dirName() == "config") {
            QDir up = root;
            up.cdUp();
            base.env["EMBODIED_PATH"] = up.absolutePath().toStdString();
        }
    }
    SessionState state;
    for (const QString &e : edits)
        state.edits.push_back(e.toStdString());
    if (const Recipe *r = findRecipe(presetId)) {
        state.presetId = presetId;
        state.preset = recipeOverrides(*r, nullptr);
    }
    m_path = base.primaryPath;
    m_revealProfiling = true;
    // A release chosen for the previous config does not carry over to another tree.
    m_versionPick->setCurrentIndex(0);
    m_session->setVerlVersion(std::nullopt);
    m_session->open(base, state);
    m_session->undoStack()->setClean();
    m_preset->setCurrentIndex(std::max(0, m_preset->findData(state.presetId)));
    m_stack->setCurrentIndex(1);
    updateHeader();
    emit statusMessage("Opened config " + m_path, 5000);
}

void ConfigureWorkspace::applyPreset(const QString &presetId)
{
    const Recipe *r = findRecipe(presetId);
    const SessionResultPtr res = m_session->result();
    // Whether the group is already in the defaults list is a property of the config without the
    // preset: compose result choices include the current preset, so drop it from consideration.
    const core::config::ComposeResult *base =
        res && res->baseline && m_session->state().preset.empty() ? res->baseline.get() : nullptr;
    m_session->setPreset(r ? presetId : QString(), r ? recipeOverrides(*r, base) : OverrideList{});
    m_preset->setCurrentIndex(std::max(0, m_preset->findData(r ? presetId : QString())));
}

bool ConfigureWorkspace::isBusy() const
{
    return m_session->isBusy();
}

SessionResultPtr ConfigureWorkspace::result() const
{
    return m_session->result();
}

void ConfigureWorkspace::showResult(const SessionResultPtr &r)
{
    m_panels->showResult(*r);
    std::string reveal; // the first result of a config shows its profiling keys
    if (m_revealProfiling && r->composed) {
        m_revealProfiling = false;
        const bool rlinf = r->analysis && r->analysis->model.framework == Framework::RLinf;
        reveal = rlinf ? "cluster.profiling" : "global_profiler";
    }
    m_panes->showResult(r, reveal);
    updateHeader();
}

// Text in a form field that is not a valid value is an error in Diagnostics, located at the
// field: the config still holds the old value, and the exports wait (ConfigureExports::blocker).
void ConfigureWorkspace::updateFieldProblems()
{
    m_panes->setFieldProblems(m_panels->fieldProblems(m_session->result().get()));
}

void ConfigureWorkspace::updateHeader()
{
    if (!m_title)
        return;
    const auto &b = m_session->base();
    const QString name = QString::fromStdString(b.configName);
    QString text =
        QString("<b>%1</b>%2 &nbsp; <span style='color:gray'>%3</span>")
            .arg(name.toHtmlEscaped(), m_session->undoStack()->isClean() ? "" : " *", m_path.toHtmlEscaped());
    m_title->setText(text);
    const SessionResultPtr r = m_session->result();
    QString status;
    if (m_session->isBusy())
        status = "composing…";
    else if (r && !r->composed)
        status = "<span style='color:#b00020'>does not compose</span>";
    else if (r)
        status = QString("%1 · %2 ms")
                     .arg(QString(core::profiling::frameworkName(r->analysis->model.framework)))
                     .arg(r->elapsedMs, 0, 'f', 1);
    m_status->setText(status);
    updateVersion(r.get());
}

void ConfigureWorkspace::updateVersion(const SessionResult *r)
{
    using namespace core::profiling;
    const Framework fw = r && r->analysis ? r->analysis->model.framework : Framework::Unknown;
    m_versionPick->setVisible(fw == Framework::Verl);
    if (fw != Framework::Verl) {
        m_version->setText(fw == Framework::RLinf ? "RLinf" : QString());
        m_version->setToolTip(QString());
        return;
    }
    const VerlVersionDetection &d = r->analysis->model.verl.detection;
    const QString name = QString("verl ") + verlVersionName(d.version);
    const bool chosen = m_session->verlVersion().has_value();
    QString how = d.detected ? "detected" : "assumed";
    if (chosen) {
        const VerlVersionDetection found = detectVerlVersion(r->composed->config);
        how = QString("chosen; detected %1").arg(verlVersionName(found.version));
    }
    m_version->setText(QString("<b>%1</b> <span style='color:gray'>(%2)</span>").arg(name, how));
    QStringList why;
    for (const std::string &w : d.why)
        why << QString::fromStdString(w);
    m_version->setToolTip("Why: " + why.join("; "));
}

bool ConfigureWorkspace::focusKey(const QString &key)
{
    return m_panels->focusKey(key.toStdString()) || m_panes->revealKey(key.toStdString());
}

// Edits not exported yet: the user saves the composed YAML, discards them, or stays.
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
    return answer != QMessageBox::Save || m_exports->saveYamlInteractively();
}

} // namespace ps::views
