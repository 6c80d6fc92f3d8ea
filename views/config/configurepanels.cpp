#include "views/config/configurepanels.h"

#include "core/profiling/verlversion.h"
#include "views/config/configpanel.h"
#include "views/config/diagnosticspane.h"
#include "views/config/intlistfield.h"
#include "views/config/launchsettingspanel.h"
#include "views/config/nsightpanel.h"
#include "views/config/rlinfpanels.h"
#include "views/config/schedulehelper.h"
#include "views/config/stepseditor.h"
#include "views/config/verlpanels.h"
#include "views/config/verlreleasepanels.h"
#include "views/config/workergroupspanel.h"

#include <QGroupBox>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <span>

namespace ps::views {

using namespace core::configedit;
using core::profiling::Framework;

namespace {

// One section of a framework page: a titled box around one panel.
struct PanelSection
{
    const char *title;
    const char *name; // the panel's objectName
    QWidget *(*make)(ConfigSession *);
    const char *sectionName = nullptr; // the box's objectName, for a section shown by release
};

const PanelSection kRLinfSections[] = {
    {"cluster.profiling", "rlinfGeneral", [](ConfigSession *s) -> QWidget * { return new RLinfGeneralPanel(s); }},
    {"Worker groups", "workerGroups", [](ConfigSession *s) -> QWidget * { return new WorkerGroupsPanel(s); }},
    {"Steps", "rlinfSteps",
     [](ConfigSession *s) -> QWidget * {
         return new StepsEditor(s, "cluster.profiling.steps", StepsEditor::Numbering::RLinfZeroBased);
     }},
    {"Output directory", "rlinfOutputDir",
     [](ConfigSession *s) -> QWidget * { return new OutputDirPanel(s, "cluster.profiling.output_dir"); }},
};

const PanelSection kVerlSections[] = {
    {"global_profiler", "verlGlobal", [](ConfigSession *s) -> QWidget * { return new VerlGlobalPanel(s); }},
    {"Steps", "verlSteps",
     [](ConfigSession *s) -> QWidget * {
         return new StepsEditor(s, "global_profiler.steps", StepsEditor::Numbering::VerlOneBased);
     }},
    {"Roles and ranks", "verlRoles", [](ConfigSession *s) -> QWidget * { return new VerlRolesPanel(s); }},
    {"Rollout profiler (actor_rollout_ref.rollout.profiler, verl 0.9+)", "verlRollout",
     [](ConfigSession *s) -> QWidget * { return new VerlRolloutProfilerPanel(s); }, "rolloutSection"},
    {"Save path", "verlOutputDir",
     [](ConfigSession *s) -> QWidget * { return new OutputDirPanel(s, "global_profiler.save_path"); }},
    {"Relocation and finish hook (verl main)", "verlHooks",
     [](ConfigSession *s) -> QWidget * { return new VerlHooksPanel(s); }, "hooksSection"},
};

QGroupBox *section(const QString &title, QWidget *content, const char *name)
{
    auto *box = new QGroupBox(title);
    (new QVBoxLayout(box))->addWidget(content);
    content->setObjectName(QString::fromLatin1(name));
    return box;
}

QWidget *scrolled(QWidget *content)
{
    auto *area = new QScrollArea;
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(content);
    return area;
}

QWidget *frameworkPage(std::span<const PanelSection> sections, ConfigSession *session)
{
    auto *page = new QWidget;
    auto *l = new QVBoxLayout(page);
    for (const PanelSection &s : sections) {
        QGroupBox *box = section(s.title, s.make(session), s.name);
        if (s.sectionName)
            box->setObjectName(QString::fromLatin1(s.sectionName));
        l->addWidget(box);
    }
    l->addStretch();
    return scrolled(page);
}

QLabel *note(const QString &text)
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    return label;
}

// The Backend page of a framework and its chosen profiler ("nsys", "rocprof_sys", "npu", ...).
int backendPage(Framework fw, const std::string &backend)
{
    if (fw == Framework::RLinf)
        return backend == "rocprof_sys" ? 2 : 1;
    if (fw == Framework::Verl)
        return backend == "nsys" ? 3 : 4;
    return 0;
}

} // namespace

ConfigurePanels::ConfigurePanels(ConfigSession *session, QWidget *parent) : QTabWidget(parent)
{
    setObjectName("panelTabs");
    addTab(buildProfilingTab(session), "Profiling");
    addTab(buildBackendTab(session), "Backend");
    auto *launch = new LaunchSettingsPanel(session);
    launch->setObjectName("launchSettings");
    addTab(scrolled(launch), "Launch");
    auto *schedule = new ScheduleHelper;
    schedule->setObjectName("scheduleHelper");
    addTab(scrolled(schedule), "Schedule helper");
    for (ConfigPanel *p : configPanels())
        connect(p, &ConfigPanel::fieldProblemsChanged, this, &ConfigurePanels::fieldProblemsChanged);
}

QWidget *ConfigurePanels::buildProfilingTab(ConfigSession *session)
{
    m_profiling = new QStackedWidget;
    m_profiling->addWidget(scrolled(note("This config has neither RLinf's cluster.profiling nor verl's "
                                         "global_profiler. Apply a preset, or add the keys through the override "
                                         "list.")));
    m_profiling->addWidget(frameworkPage(kRLinfSections, session));
    m_profiling->addWidget(frameworkPage(kVerlSections, session));
    return m_profiling;
}

QWidget *ConfigurePanels::buildBackendTab(ConfigSession *session)
{
    m_backend = new QStackedWidget;
    m_backend->addWidget(note("No profiler selected."));
    m_backend->addWidget(scrolled(
        section("Nsight Systems (cluster.profiling.options, flags)",
                new NsightPanel(session, {"cluster.profiling.options", "cluster.profiling.flags", "t", true, false}),
                "rlinfNsight")));
    m_backend->addWidget(
        scrolled(section("ROCm Systems Profiler (rocprof-sys)", new RocprofPanel(session), "rocprof")));
    auto *verlNsys = new QTabWidget;
    const std::string base = "global_profiler.global_tool_config.nsys.";
    struct NsysTab
    {
        const char *who, *title, *name;
    };
    for (const NsysTab &tab : {NsysTab{"worker", "Workers", "verlWorkerNsight"},
                               NsysTab{"controller", "Controller", "verlControllerNsight"}}) {
        const std::string options = base + tab.who + "_nsight_options";
        auto *panel = new NsightPanel(session, {options, "", "trace", false, true});
        panel->setObjectName(QString::fromLatin1(tab.name));
        verlNsys->addTab(scrolled(panel),
                         QString("%1 (%2)").arg(tab.title, QString::fromStdString(options.substr(base.size()))));
    }
    m_backend->addWidget(verlNsys);
    auto *tools = new VerlToolPanel(session);
    tools->setObjectName("verlTools");
    m_backend->addWidget(scrolled(tools));
    return m_backend;
}

QList<ConfigPanel *> ConfigurePanels::configPanels() const
{
    return findChildren<ConfigPanel *>();
}

void ConfigurePanels::showResult(const SessionResult &r)
{
    const Framework fw = r.analysis ? r.analysis->model.framework : Framework::Unknown;
    const std::string backend = r.analysis ? r.analysis->model.backend() : std::string();
    m_profiling->setCurrentIndex(fw == Framework::RLinf ? 1 : fw == Framework::Verl ? 2 : 0);
    m_backend->setCurrentIndex(backendPage(fw, backend));
    panel<LaunchSettingsPanel>("launchSettings")->showFramework(fw != Framework::Verl);
    if (fw == Framework::Verl && (backend == "npu" || backend == "torch"))
        panel<ScheduleHelper>("scheduleHelper")->setApi(backend == "npu" ? ScheduleApi::TorchNpu : ScheduleApi::Torch);
    if (r.composed)
        for (ConfigPanel *p : configPanels())
            p->refresh(r);
    // Without cluster.profiling the groups, steps and output dir have nothing to edit: an edit
    // would create a partial block. "Add profiling" is the way in.
    const bool rlinfProfiling = panel<RLinfGeneralPanel>("rlinfGeneral")->profilingPresent();
    for (const char *name : {"workerGroups", "rlinfSteps", "rlinfOutputDir"})
        panel<QWidget>(name)->setEnabled(rlinfProfiling);
    const core::profiling::VerlVersionTraits *traits = verlTraits(r);
    panel<QWidget>("rolloutSection")->setVisible(traits && traits->profileTokens);
    panel<QWidget>("hooksSection")->setVisible(traits && traits->relocateAndFinishHook);
}

QList<FieldProblem> ConfigurePanels::fieldProblems(const SessionResult *r) const
{
    QList<FieldProblem> problems;
    for (ConfigPanel *p : configPanels()) {
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
    return problems;
}

// On the page that follows the current framework and backend (the others are hidden stacks).
bool ConfigurePanels::isLive(QWidget *control) const
{
    for (QWidget *w = control; w && w != this; w = w->parentWidget())
        if (auto *stack = qobject_cast<QStackedWidget *>(w->parentWidget());
            stack && (stack == m_profiling || stack == m_backend) && stack->currentWidget() != w)
            return false;
    return true;
}

bool ConfigurePanels::focusKey(const std::string &key)
{
    QWidget *best = nullptr;
    size_t bestLen = 0;
    for (ConfigPanel *p : configPanels()) {
        for (const auto &[k, w] : p->controls()) {
            const bool match =
                k == key || (key.size() > k.size() && key.compare(0, k.size(), k) == 0 && key[k.size()] == '.');
            if (match && k.size() >= bestLen && isLive(w)) {
                best = w;
                bestLen = k.size();
            }
        }
    }
    if (!best)
        return false;
    for (QWidget *w = best; w && w != this; w = w->parentWidget()) {
        if (auto *tabs = qobject_cast<QTabWidget *>(w->parentWidget() ? w->parentWidget()->parentWidget() : nullptr))
            tabs->setCurrentWidget(w);
        if (auto *area = qobject_cast<QScrollArea *>(w))
            area->ensureWidgetVisible(best);
    }
    best->setFocus(Qt::OtherFocusReason);
    return true;
}

} // namespace ps::views
