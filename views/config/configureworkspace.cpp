#include "views/config/configureworkspace.h"

#include "views/common/emptystate.h"
#include "views/common/filedialogs.h"
#include "views/common/recentfiles.h"
#include "views/common/undokeys.h"
#include "views/config/configsession.h"
#include "views/config/defaultstreepane.h"
#include "views/config/diagnosticspane.h"
#include "views/config/diffpane.h"
#include "views/config/intlistfield.h"
#include "views/config/launchplanpane.h"
#include "views/config/launchsettingspanel.h"
#include "views/config/nsightpanel.h"
#include "views/config/overridespane.h"
#include "views/config/recipes.h"
#include "views/config/rlinfpanels.h"
#include "views/config/schedulehelper.h"
#include "views/config/stepseditor.h"
#include "views/config/verlpanels.h"
#include "views/config/verlreleasepanels.h"
#include "views/config/workergroupspanel.h"
#include "views/config/yamlpane.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace ps::views {

using namespace core::configedit;
using core::profiling::Framework;

namespace {

QGroupBox *section(const QString &title, QWidget *content, QWidget *parent)
{
    auto *box = new QGroupBox(title, parent);
    (new QVBoxLayout(box))->addWidget(content);
    return box;
}

} // namespace

ConfigureWorkspace::ConfigureWorkspace(QWidget *parent) : Workspace(parent), m_session(new ConfigSession(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);
    m_stack->addWidget(buildStartPage());
    m_stack->addWidget(buildEditor());

    connect(m_session, &ConfigSession::resultReady, this, &ConfigureWorkspace::showResult);
    connect(m_session, &ConfigSession::busyChanged, this, [this](bool busy) {
        emit busyChanged(busy);
        updateHeader();
    });
    connect(m_session->undoStack(), &QUndoStack::cleanChanged, this, [this] { updateHeader(); });
    routeUndoKeysToWorkspace(this); // Ctrl+Z in a field without an undo of its own: the session's
    for (ConfigPanel *p : panels())
        connect(p, &ConfigPanel::fieldProblemsChanged, this, &ConfigureWorkspace::updateFieldProblems);
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
    m_empty = new EmptyState(
        "Configure a profiled run",
        "Open the primary config of an RLinf or verl checkout — <code>examples/embodiment/config/*.yaml</code> or "
        "<code>verl/trainer/config/ppo_trainer.yaml</code>; its folder is the config root. Or start from a built-in "
        "preset: pick the primary config it applies to. Every edit recomposes and revalidates as you go; the "
        "exports are what Hydra would compose.",
        this);
    m_empty->addAction("open-config", "Open Config…");
    for (const Recipe &r : builtinRecipes())
        m_empty->addAction("preset:" + r.id, "Start from preset: " + r.label + "…");
    for (const QString &recent : RecentFiles("recent/configs").entries().mid(0, 4))
        m_empty->addAction("recent:" + recent,
                           "Recent: " + QFileInfo(recent).fileName() + " — " + QFileInfo(recent).absolutePath());
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

QWidget *ConfigureWorkspace::scrolled(QWidget *content)
{
    auto *area = new QScrollArea(this);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(content);
    return area;
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
    auto *menu = new QMenu(exportButton);
    for (auto [id, label] : {std::pair{"yaml", "Save YAML…"}, std::pair{"yaml-minimal", "Save minimal YAML…"},
                             std::pair{"overrides", "Copy overrides"}, std::pair{"ray-job", "Copy ray job submit line"},
                             std::pair{"script", "Save launch script…"},
                             std::pair{"collect", "Save collect script (gather digests from the nodes)…"},
                             std::pair{"ray-digest", "Save Ray digest job (digest the reports on the nodes)…"}}) {
        const QString key = id;
        menu->addAction(label, this, [this, key] { exportMenuTriggered(key); });
    }
    exportButton->setMenu(menu);
    row->addWidget(exportButton);

    m_status = new QLabel(bar);
    m_status->setObjectName("composeStatus");
    m_status->setMinimumWidth(160);
    row->addWidget(m_status);
    return bar;
}

QWidget *ConfigureWorkspace::buildVerlPage()
{
    auto *page = new QWidget;
    auto *l = new QVBoxLayout(page);
    m_verlGlobal = new VerlGlobalPanel(m_session);
    m_verlSteps = new StepsEditor(m_session, "global_profiler.steps", StepsEditor::Numbering::VerlOneBased);
    m_verlOutput = new OutputDirPanel(m_session, "global_profiler.save_path");
    m_verlRoles = new VerlRolesPanel(m_session);
    m_verlRollout = new VerlRolloutProfilerPanel(m_session);
    m_verlHooks = new VerlHooksPanel(m_session);
    l->addWidget(section("global_profiler", m_verlGlobal, page));
    l->addWidget(section("Steps", m_verlSteps, page));
    l->addWidget(section("Roles and ranks", m_verlRoles, page));
    m_rolloutSection = section("Rollout profiler (actor_rollout_ref.rollout.profiler, verl 0.9+)", m_verlRollout, page);
    m_rolloutSection->setObjectName("rolloutSection");
    l->addWidget(m_rolloutSection);
    l->addWidget(section("Save path", m_verlOutput, page));
    m_hooksSection = section("Relocation and finish hook (verl main)", m_verlHooks, page);
    m_hooksSection->setObjectName("hooksSection");
    l->addWidget(m_hooksSection);
    l->addStretch();
    return page;
}

QWidget *ConfigureWorkspace::buildEditor()
{
    auto *page = new QWidget(this);
    auto *outer = new QVBoxLayout(page);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(buildHeader());
    auto *split = new QSplitter(Qt::Horizontal, page);
    outer->addWidget(split, 1);

    m_panels = new QTabWidget(split);
    m_panels->setObjectName("panelTabs");
    m_panels->addTab(buildProfilerPage(), "Profiling");
    m_panels->addTab(buildBackendPage(), "Backend");
    m_defaults = new DefaultsTreePane(m_session);
    m_panels->addTab(m_defaults, "Defaults tree");
    m_launchSettings = new LaunchSettingsPanel(m_session);
    m_panels->addTab(scrolled(m_launchSettings), "Launch");
    m_schedule = new ScheduleHelper;
    m_panels->addTab(scrolled(m_schedule), "Schedule helper");
    buildLivePanes(split);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({620, 900});
    return page;
}

// The Profiling tab: one page per framework (RLinf, verl, neither), switched by refresh.
QWidget *ConfigureWorkspace::buildProfilerPage()
{
    m_profilerStack = new QStackedWidget(m_panels);
    m_rlinfPage = new QWidget;
    {
        auto *l = new QVBoxLayout(m_rlinfPage);
        m_rlinfGeneral = new RLinfGeneralPanel(m_session);
        m_workerGroups = new WorkerGroupsPanel(m_session);
        m_rlinfSteps = new StepsEditor(m_session, "cluster.profiling.steps", StepsEditor::Numbering::RLinfZeroBased);
        m_rlinfOutput = new OutputDirPanel(m_session, "cluster.profiling.output_dir");
        l->addWidget(section("cluster.profiling", m_rlinfGeneral, m_rlinfPage));
        l->addWidget(section("Worker groups", m_workerGroups, m_rlinfPage));
        l->addWidget(section("Steps", m_rlinfSteps, m_rlinfPage));
        l->addWidget(section("Output directory", m_rlinfOutput, m_rlinfPage));
        l->addStretch();
    }
    m_verlPage = buildVerlPage();
    m_unknownPage = new QLabel("This config has neither RLinf's cluster.profiling nor verl's global_profiler. "
                               "Apply a preset, or add the keys through the override list.");
    static_cast<QLabel *>(m_unknownPage)->setWordWrap(true);
    static_cast<QLabel *>(m_unknownPage)->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    for (QWidget *w : {m_unknownPage, m_rlinfPage, m_verlPage})
        m_profilerStack->addWidget(scrolled(w));
    return m_profilerStack;
}

// The Backend tab: the options of the chosen profiler backend / tool.
QWidget *ConfigureWorkspace::buildBackendPage()
{
    m_backendStack = new QStackedWidget(m_panels);
    m_rlinfNsight =
        new NsightPanel(m_session, {"cluster.profiling.options", "cluster.profiling.flags", "t", true, false});
    m_nsightPage = section("Nsight Systems (cluster.profiling.options, flags)", m_rlinfNsight, nullptr);
    m_rocprof = new RocprofPanel(m_session);
    m_rocprofPage = section("ROCm Systems Profiler (rocprof-sys)", m_rocprof, nullptr);
    {
        auto *tabs = new QTabWidget;
        const std::string base = "global_profiler.global_tool_config.nsys.";
        m_verlWorkerNsight = new NsightPanel(m_session, {base + "worker_nsight_options", "", "trace", false, true});
        m_verlControllerNsight =
            new NsightPanel(m_session, {base + "controller_nsight_options", "", "trace", false, true});
        tabs->addTab(scrolled(m_verlWorkerNsight), "Workers (worker_nsight_options)");
        tabs->addTab(scrolled(m_verlControllerNsight), "Controller (controller_nsight_options)");
        m_verlNsysPage = tabs;
    }
    m_verlTools = new VerlToolPanel(m_session);
    auto *noBackend = new QLabel("No profiler selected.");
    noBackend->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_backendStack->addWidget(noBackend);
    m_backendStack->addWidget(scrolled(m_nsightPage));
    m_backendStack->addWidget(scrolled(m_rocprofPage));
    m_backendStack->addWidget(m_verlNsysPage);
    m_backendStack->addWidget(scrolled(m_verlTools));
    return m_backendStack;
}

// The live panes beside the panels: YAML, diff, diagnostics, launch plan, overrides.
void ConfigureWorkspace::buildLivePanes(QSplitter *split)
{
    m_panes = new QTabWidget(split);
    m_panes->setObjectName("paneTabs");
    m_yaml = new YamlPane;
    m_diff = new DiffPane;
    m_diagnostics = new DiagnosticsPane;
    m_launch = new LaunchPlanPane;
    m_overrides = new OverridesPane(m_session);
    m_panes->addTab(m_yaml, "Composed YAML");
    m_panes->addTab(m_diff, "Diff vs preset");
    m_panes->addTab(m_diagnostics, "Diagnostics");
    m_panes->addTab(m_launch, "Launch plan");
    m_panes->addTab(m_overrides, "Overrides");
    connect(m_diagnostics, &DiagnosticsPane::keyActivated, this, [this](const QString &key) { focusKey(key); });
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

QList<ConfigPanel *> ConfigureWorkspace::panels() const
{
    return findChildren<ConfigPanel *>();
}

void ConfigureWorkspace::showResult(const SessionResultPtr &r)
{
    Framework fw = r->analysis ? r->analysis->model.framework : Framework::Unknown;
    m_profilerStack->setCurrentIndex(fw == Framework::RLinf ? 1 : fw == Framework::Verl ? 2 : 0);
    const std::string backend = r->analysis ? r->analysis->model.backend() : std::string();
    int backendPage = 0;
    if (fw == Framework::RLinf)
        backendPage = backend == "rocprof_sys" ? 2 : 1;
    else if (fw == Framework::Verl)
        backendPage = backend == "nsys" ? 3 : 4;
    m_backendStack->setCurrentIndex(backendPage);
    m_launchSettings->showFramework(fw != Framework::Verl);
    if (fw == Framework::Verl && (backend == "npu" || backend == "torch")) {
        m_schedule->setApi(backend == "npu" ? ScheduleApi::TorchNpu : ScheduleApi::Torch);
    }

    if (r->composed) {
        for (ConfigPanel *p : panels())
            p->refresh(*r);
    }
    // Without cluster.profiling the groups, steps and output dir have nothing to edit: an edit
    // would create a partial block. "Add profiling" is the way in.
    for (QWidget *w : {static_cast<QWidget *>(m_workerGroups), static_cast<QWidget *>(m_rlinfSteps),
                       static_cast<QWidget *>(m_rlinfOutput)})
        w->setEnabled(m_rlinfGeneral->profilingPresent());
    const core::profiling::VerlVersionTraits *traits = verlTraits(*r);
    m_rolloutSection->setVisible(traits && traits->profileTokens);
    m_hooksSection->setVisible(traits && traits->relocateAndFinishHook);
    m_yaml->showResult(r);
    if (m_revealProfiling && r->composed) {
        m_revealProfiling = false;
        const char *key = fw == Framework::RLinf ? "cluster.profiling" : "global_profiler";
        m_yaml->revealKey(key, false);
    }
    m_diff->showResult(r);
    m_diagnostics->showResult(r);
    m_launch->showResult(r);
    m_defaults->showResult(r);
    updateDiagnosticsTab();
    updateHeader();
}

void ConfigureWorkspace::updateDiagnosticsTab()
{
    const int problems = m_diagnostics->errorCount() + m_diagnostics->warningCount();
    m_panes->setTabText(2, problems ? QString("Diagnostics (%1)").arg(problems) : QString("Diagnostics"));
}

// Text in a form field that is not a valid value is an error in Diagnostics, located at the
// field: the config still holds the old value, and the exports wait (exportBlocker).
void ConfigureWorkspace::updateFieldProblems()
{
    QList<FieldProblem> problems;
    const SessionResultPtr r = m_session->result();
    for (ConfigPanel *p : panels()) {
        for (const auto &[key, control] : p->controls()) {
            const auto *field = qobject_cast<const IntListField *>(control);
            if (!field || field->problem().isEmpty())
                continue;
            const core::config::Node *now = r ? composedNode(*r, key) : nullptr;
            const QString kept = now && !now->isNull() ? "keeps " + QString::fromStdString(now->toPythonString())
                                                       : QString("does not set it");
            problems.append(
                {QString::fromStdString(key),
                 QString("“%1” is not valid: %2. The config %3.").arg(field->text(), field->problem(), kept)});
        }
    }
    m_diagnostics->setFieldProblems(problems);
    updateDiagnosticsTab();
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

bool ConfigureWorkspace::focusKey(const QString &keyText)
{
    const std::string key = keyText.toStdString();
    // The most specific visible control whose key is the diagnostic's key or an ancestor of it.
    QWidget *best = nullptr;
    size_t bestLen = 0;
    for (ConfigPanel *p : panels()) {
        for (const auto &[k, w] : p->controls()) {
            const bool match =
                k == key || (key.size() > k.size() && key.compare(0, k.size(), k) == 0 && key[k.size()] == '.');
            if (!match || k.size() < bestLen)
                continue;
            // Only controls on the page that follows the current framework/backend.
            bool live = true;
            for (QWidget *w2 = w; w2 && w2 != this; w2 = w2->parentWidget())
                if (w2->parentWidget() == m_profilerStack || w2->parentWidget() == m_backendStack)
                    live = live && static_cast<QStackedWidget *>(w2->parentWidget())->currentWidget() == w2;
            if (live) {
                best = w;
                bestLen = k.size();
            }
        }
    }
    if (best) {
        for (QWidget *w = best; w && w != this; w = w->parentWidget()) {
            if (auto *tabs =
                    qobject_cast<QTabWidget *>(w->parentWidget() ? w->parentWidget()->parentWidget() : nullptr))
                tabs->setCurrentWidget(w);
            if (auto *area = qobject_cast<QScrollArea *>(w))
                area->ensureWidgetVisible(best);
        }
        best->setFocus(Qt::OtherFocusReason);
        return true;
    }
    if (m_yaml->revealKey(key)) {
        m_panes->setCurrentWidget(m_yaml);
        return true;
    }
    return false;
}

} // namespace ps::views
