// The Configure workspace driven through its panels with QTest, offscreen. Each test makes the
// edits a user would make, then checks (1) the override list the panels produced, (2) that the
// workspace's exports (YAML, overrides, launch plan) equal what the engine produces for the same
// base + overrides, and (3) the spec's worked examples R2, R3 and V1 character for character.
#include "configuretestutil.h"

#include "core/config/keypath.h"
#include "core/profiling/exporters.h"
#include "views/common/recentfiles.h"
#include "views/config/configsession.h"
#include "views/config/configureexports.h"
#include "views/config/configurepanels.h"
#include "views/config/configurepanes.h"
#include "views/config/defaultstreepane.h"
#include "views/config/diagnosticspane.h"
#include "views/config/diffpane.h"
#include "views/config/intlistfield.h"
#include "views/config/keyvaluetable.h"
#include "views/config/launchplanpane.h"
#include "views/config/launchsettingspanel.h"
#include "views/config/nsightpanel.h"
#include "views/config/overridespane.h"
#include "views/config/rlinfpanels.h"
#include "views/config/schedulehelper.h"
#include "views/config/stepseditor.h"
#include "views/config/verlpanels.h"
#include "views/config/workergroupspanel.h"
#include "views/config/yamlpane.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <QUndoStack>

using namespace ps::views;
using namespace ps::core::configedit;
using cfgtest::engine;
using cfgtest::settle;
using cfgtest::toQt;
using namespace pstest::spec;

namespace {

void typeInto(QLineEdit *field, const QString &text)
{
    field->setFocus();
    field->selectAll();
    QTest::keyClicks(field, text);
    QTest::keyClick(field, Qt::Key_Return);
}

void setChecked(QCheckBox *box, bool on)
{
    if (box->isChecked() != on)
        QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(4, box->height() / 2));
    QCOMPARE(box->isChecked(), on);
}

QString readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QString();
    return QString::fromUtf8(f.readAll());
}

// The workspace's exports equal the engine's for the same base + overrides.
void compareWithEngine(ConfigureWorkspace &ws, const QString &root, const QString &name, bool rlinf)
{
    const auto overrides = ws.session()->allOverrides();
    const cfgtest::EngineRun run = engine(root, name, overrides, rlinf);
    QVERIFY2(run.analysis, run.error.c_str());
    const SessionResultPtr r = ws.result();
    QVERIFY(r && r->analysis);
    QCOMPARE(r->compose.overrides, overrides);
    QCOMPARE(r->yaml, run.analysis->exports.yaml);
    QCOMPARE(ws.exports()->overridesText().toStdString(), run.analysis->exports.overrides);
    QCOMPARE(ws.exports()->rayJobText().toStdString(), run.analysis->exports.rayJob);
    QTemporaryDir dir;
    QCOMPARE(ws.exports()->saveYaml(dir.filePath("full.yaml"), false), QString());
    QCOMPARE(readFile(dir.filePath("full.yaml")).toStdString(), run.analysis->exports.yaml);
    ps::core::config::ComposeOptions o = r->compose;
    QCOMPARE(ws.exports()->saveYaml(dir.filePath("minimal.yaml"), true), QString());
    QCOMPARE(readFile(dir.filePath("minimal.yaml")).toStdString(),
             ps::core::profiling::exportYamlMinimal(o, *run.composed));
    // The launch plan pane shows the engine's commands.
    for (const auto &w : run.analysis->launch.workers)
        QCOMPARE(ws.panes()->launchPlan()->commandOf(QString::fromStdString(w.name)).toStdString(), w.command);
    // The composed YAML pane shows the same text.
    QCOMPARE(ws.panes()->yaml()->toPlainText().toStdString(), run.analysis->exports.yaml);
}

void setRaySession(ConfigureWorkspace &ws)
{
    auto launch = ws.session()->launchOptions();
    launch.raySessionDir = "/tmp/ray/session_<id>";
    ws.session()->setLaunchOptions(launch);
    QVERIFY(settle(ws));
}

} // namespace

class TestConfigureWorkspace : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("ProfStudioTest");
        QCoreApplication::setApplicationName("tst_configureworkspace");
    }

    // R2: the preset plus ActorGroup only and steps [3].
    void rlinfActorGroupStep3IsR2()
    {
        ConfigureWorkspace ws;
        ws.resize(1500, 950);
        ws.show();
        const QString root = cfgtest::rlinfRoot("rlinf-with-profile");
        ws.openConfig({root}, "maniskill_ppo_mlp", {QString::fromStdString("runner.logger.log_path=" + kLogPath)});
        QVERIFY(settle(ws));
        QVERIFY2(ws.result()->composed, ws.result()->error.c_str());
        QCOMPARE(ws.panels()->currentIndex(), 0);

        WorkerGroupsPanel *groups = ws.panels()->panel<WorkerGroupsPanel>("workerGroups");
        QCOMPARE(groups->item("ActorGroup")->checkState(), Qt::Checked);
        QCOMPARE(groups->item("RolloutGroup")->checkState(), Qt::Checked);
        groups->item("RolloutGroup")->setCheckState(Qt::Unchecked);
        groups->item("EnvGroup")->setCheckState(Qt::Unchecked);
        typeInto(ws.panels()->panel<StepsEditor>("rlinfSteps")->field(), "3");
        QVERIFY(settle(ws));

        QCOMPARE(toQt(ws.session()->state().edits),
                 QStringList({QString::fromStdString("runner.logger.log_path=" + kLogPath),
                              "cluster.profiling.worker_groups=[ActorGroup]", "+cluster.profiling.steps=[3]"}));
        QVERIFY(ws.panels()->panel<StepsEditor>("rlinfSteps")->onlyListed()->isChecked());
        compareWithEngine(ws, root, "maniskill_ppo_mlp", true);
        QCOMPARE(ws.panes()->launchPlan()->commandOf("ActorGroup:0").toStdString(), kR2);
        QVERIFY(ws.panes()->launchPlan()->commandOf("RolloutGroup:0").isEmpty()); // not wrapped any more

        // The Undo button keeps its text and width; the change it would undo is in the tooltip.
        const QToolButton *undoButton = ws.findChild<QToolButton *>("undoButton");
        QVERIFY(undoButton);
        QCOMPARE(undoButton->text(), QString("Undo"));
        QVERIFY2(undoButton->toolTip().startsWith("Undo: ") && undoButton->toolTip().size() > 6,
                 qPrintable(undoButton->toolTip()));
        QVERIFY(ws.minimumSizeHint().width() <= 1280);

        // Undo / redo walk the same override list; the panes follow.
        QUndoStack *undo = ws.session()->undoStack();
        undo->undo();
        QVERIFY(settle(ws));
        QCOMPARE(int(ws.session()->state().edits.size()), 2);
        QVERIFY(!ws.panels()->panel<StepsEditor>("rlinfSteps")->onlyListed()->isChecked());
        QVERIFY(!ps::core::config::findPath(ws.result()->composed->config, "cluster.profiling.steps"));
        undo->redo();
        QVERIFY(settle(ws));
        QCOMPARE(ws.panes()->launchPlan()->commandOf("ActorGroup:0").toStdString(), kR2);
        QCOMPARE(ws.panels()->panel<StepsEditor>("rlinfSteps")->field()->text(), QString("3"));

        // The diff against the preset shows exactly the two edited keys.
        const QString diff = ws.panes()->diff()->toPlainText();
        QVERIFY2(diff.contains("+    steps:") || diff.contains("+    - 3"), qPrintable(diff));
        QVERIFY2(diff.contains("-    - RolloutGroup"), qPrintable(diff));
    }

    // Ctrl+Z / Ctrl+Shift+Z act on the session wherever focus is; a field's own undo comes first
    // while it has any (#38: in the override field, five presses undid nothing).
    void undoKeysReachTheSessionFromAnyField()
    {
        ConfigureWorkspace ws;
        ws.resize(1500, 950);
        ws.show();
        ws.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&ws));
        const QString root = cfgtest::rlinfRoot("rlinf-with-profile");
        ws.openConfig({root}, "maniskill_ppo_mlp", {QString::fromStdString("runner.logger.log_path=" + kLogPath)});
        QVERIFY(settle(ws));
        typeInto(ws.panels()->panel<StepsEditor>("rlinfSteps")->field(), "3");
        QVERIFY(settle(ws));
        const size_t edits = ws.session()->state().edits.size();
        QLineEdit *input = ws.panes()->overrides()->input();
        input->setFocus();
        QTest::keyClicks(input, QStringLiteral("x"));
        QTest::keyClick(input, Qt::Key_Z, Qt::ControlModifier); // the field's own typing first
        QCOMPARE(input->text(), QString());
        QCOMPARE(ws.session()->state().edits.size(), edits);
        QTest::keyClick(input, Qt::Key_Z, Qt::ControlModifier); // then the session's last edit
        QVERIFY(settle(ws));
        QCOMPARE(ws.session()->state().edits.size(), edits - 1);
        QTest::keyClick(input, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier); // the field's redo first
        QCOMPARE(input->text(), QStringLiteral("x"));
        QTest::keyClick(input, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier); // then the session's
        QVERIFY(settle(ws));
        QCOMPARE(ws.session()->state().edits.size(), edits);
        // A field without any history of its own passes both on; Ctrl+Y redoes as well.
        input->setText(QString()); // setText drops the field's undo history
        QTest::keyClick(input, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(settle(ws));
        QCOMPARE(ws.session()->state().edits.size(), edits - 1);
        QTest::keyClick(input, Qt::Key_Y, Qt::ControlModifier);
        QVERIFY(settle(ws));
        QCOMPARE(ws.session()->state().edits.size(), edits);
    }

    // R3: flags python-backtrace with the stop-on-range-end alias.
    void rlinfAliasAndFlagsIsR3()
    {
        ConfigureWorkspace ws;
        ws.resize(1500, 950);
        ws.show();
        const QString root = cfgtest::rlinfRoot("rlinf-with-profile");
        ws.openConfig({root}, "maniskill_ppo_mlp");
        QVERIFY(settle(ws));
        // Two rollout ranks, typed into the override list as a user would.
        OverridesPane *pane = ws.panes()->overrides();
        typeInto(pane->input(), "~cluster.component_placement");
        typeInto(pane->input(), "+cluster.component_placement={env: 0, rollout: '0-1', actor: 0}");
        QVERIFY(settle(ws));

        WorkerGroupsPanel *groups = ws.panels()->panel<WorkerGroupsPanel>("workerGroups");
        groups->item("ActorGroup")->setCheckState(Qt::Unchecked);
        groups->item("EnvGroup")->setCheckState(Qt::Unchecked);
        typeInto(ws.panels()->panel<StepsEditor>("rlinfSteps")->field(), "5");
        NsightPanel *n = ws.panels()->panel<NsightPanel>("rlinfNsight");
        ws.panels()->setCurrentIndex(1);
        QVERIFY(settle(ws));
        setChecked(n->flag("python-backtrace"), true);
        for (const char *api : {"cudnn", "cublas", "osrt"})
            setChecked(n->traceApi(api), false);
        QVERIFY(settle(ws));
        for (const char *opt : {"sample", "cpuctxsw", "cudabacktrace", "osrt-threshold"})
            n->option(opt)->setCurrentIndex(0); // (not set)
        n->option("capture-range")->setCurrentText("nvtx");
        n->option("stop-on-range-end")->setCurrentText("true");
        ws.panels()->setCurrentIndex(0);
        typeInto(ws.panels()->panel<OutputDirPanel>("rlinfOutputDir")->field(), "/runs/x/profiling");
        QVERIFY(settle(ws));

        QCOMPARE(toQt(ws.session()->state().edits),
                 QStringList({"~cluster.component_placement",
                              "+cluster.component_placement={env: 0, rollout: '0-1', actor: 0}",
                              "cluster.profiling.worker_groups=[RolloutGroup]", "+cluster.profiling.steps=[5]",
                              "cluster.profiling.flags=[python-backtrace]", "cluster.profiling.options.t='cuda,nvtx'",
                              "~cluster.profiling.options.sample", "~cluster.profiling.options.cpuctxsw",
                              "~cluster.profiling.options.cudabacktrace", "~cluster.profiling.options.osrt-threshold",
                              "+cluster.profiling.options.capture-range=nvtx",
                              "+cluster.profiling.options.stop-on-range-end=true",
                              "+cluster.profiling.output_dir=/runs/x/profiling"}));
        compareWithEngine(ws, root, "maniskill_ppo_mlp", true);
        const auto &model = ws.result()->analysis->model.rlinf;
        const ps::core::profiling::OptionList expected = {
            {"t", "cuda,nvtx"}, {"capture-range", "nvtx"}, {"capture-range-end", "stop"}};
        QCOMPARE(model.options, expected);
        QCOMPARE(ws.panes()->launchPlan()->commandOf("RolloutGroup:1").toStdString(), kR3);
        // The composed option values show in the panel (alias stays as written; the engine normalises).
        QCOMPARE(n->option("stop-on-range-end")->currentText(), QString("true"));
        QVERIFY(n->traceApi("nvtx")->isChecked() && !n->traceApi("osrt")->isChecked());
    }

    // V1: verl nsys, steps [1,2,5] continuous, actor and critic on all ranks.
    void verlNsysContinuousIsV1()
    {
        ConfigureWorkspace ws;
        ws.resize(1500, 950);
        ws.show();
        const QString root = cfgtest::verlRoot();
        ws.openConfig({root}, "ppo_trainer");
        QVERIFY(settle(ws));
        QVERIFY2(ws.result()->composed, ws.result()->error.c_str());
        VerlGlobalPanel *g = ws.panels()->panel<VerlGlobalPanel>("verlGlobal");
        g->tool()->setCurrentText("nsys");
        typeInto(ws.panels()->panel<StepsEditor>("verlSteps")->field(), "1, 2, 5");
        setChecked(g->continuous(), true);
        VerlRolesPanel *roles = ws.panels()->panel<VerlRolesPanel>("verlRoles");
        for (const char *role : {"actor", "critic"}) {
            setChecked(roles->enable(role), true);
            setChecked(roles->allRanks(role), true);
        }
        QVERIFY(settle(ws));
        QCOMPARE(toQt(ws.session()->state().edits),
                 QStringList({"global_profiler.tool=nsys", "global_profiler.steps=[1,2,5]",
                              "global_profiler.profile_continuous_steps=true",
                              "actor_rollout_ref.actor.profiler.enable=true",
                              "actor_rollout_ref.actor.profiler.all_ranks=true", "critic.profiler.enable=true",
                              "critic.profiler.all_ranks=true"}));
        compareWithEngine(ws, root, "ppo_trainer", false);
        // Same composition as the spec's own V1 override list.
        const cfgtest::EngineRun spec = engine(root, "ppo_trainer", kV1Overrides, false);
        QVERIFY(spec.analysis);
        QCOMPARE(ws.result()->yaml, spec.analysis->exports.yaml);
        // The spec's examples name the Ray session directory session_<id>.
        setRaySession(ws);
        QCOMPARE(ws.panes()->launchPlan()->commandOf("TaskRunner").toStdString(), kV1Controller);
        const auto *w0 = worker(ws.result()->analysis->launch, "global_pool:0");
        QVERIFY(w0);
        QCOMPARE(w0->command, kV1Worker);
        QCOMPARE(w0->captureRanges.size(), size_t(2));
        // The backend page follows the tool: nsys options of the workers.
        QCOMPARE(ws.panels()->panel<NsightPanel>("verlWorkerNsight")->traceApi("ucx")->isChecked(), true);
        // The rollout follows the actor by interpolation: shown enabled, not edited.
        QVERIFY(ws.panels()->panel<VerlRolesPanel>("verlRoles")->enable("rollout")->isChecked());
    }

    void verlRankListAndToolPanels()
    {
        ConfigureWorkspace ws;
        ws.show();
        const QString root = cfgtest::verlRoot();
        ws.openConfig({root}, "ppo_trainer");
        QVERIFY(settle(ws));
        ws.panels()->panel<VerlGlobalPanel>("verlGlobal")->tool()->setCurrentText("npu");
        typeInto(ws.panels()->panel<StepsEditor>("verlSteps")->field(), "2");
        setChecked(ws.panels()->panel<VerlRolesPanel>("verlRoles")->enable("actor"), true);
        typeInto(ws.panels()->panel<VerlRolesPanel>("verlRoles")->ranks("actor"), "0,1,4-7");
        QVERIFY(settle(ws));
        VerlToolPanel *t = ws.panels()->panel<VerlToolPanel>("verlTools");
        t->npuLevel()->setCurrentText("level1");
        setChecked(t->npuContent("npu"), true);
        setChecked(t->npuDiscrete(), true);
        QVERIFY(settle(ws));
        QCOMPARE(toQt(ws.session()->state().edits),
                 QStringList({"global_profiler.tool=npu", "global_profiler.steps=[2]",
                              "actor_rollout_ref.actor.profiler.enable=true",
                              "actor_rollout_ref.actor.profiler.ranks=[0,1,4,5,6,7]",
                              "actor_rollout_ref.actor.profiler.tool_config.npu.level=level1",
                              "actor_rollout_ref.actor.profiler.tool_config.npu.contents=[npu]",
                              "actor_rollout_ref.actor.profiler.tool_config.npu.discrete=true"}));
        compareWithEngine(ws, root, "ppo_trainer", false);
        const auto *actor = ws.result()->analysis->model.verl.role("actor");
        QVERIFY(actor);
        QCOMPARE(actor->ranks, (std::vector<long long>{0, 1, 4, 5, 6, 7}));
        QCOMPARE(actor->npuLevel, std::string("level1"));
        QVERIFY(actor->npuDiscrete);
        QCOMPARE(ws.panels()->panel<VerlRolesPanel>("verlRoles")->ranks("actor")->text(), QString("0,1,4-7"));
        // An invalid rank list is not committed.
        typeInto(ws.panels()->panel<VerlRolesPanel>("verlRoles")->ranks("actor"), "3-1");
        QVERIFY(settle(ws));
        QVERIFY(!ws.panels()->panel<VerlRolesPanel>("verlRoles")->ranks("actor")->problem().isEmpty());
        QCOMPARE(ws.result()->analysis->model.verl.role("actor")->ranks, (std::vector<long long>{0, 1, 4, 5, 6, 7}));
        // verl steps are 1-based: 0 is refused.
        typeInto(ws.panels()->panel<StepsEditor>("verlSteps")->field(), "0");
        QVERIFY(settle(ws));
        QVERIFY(ws.panels()->panel<StepsEditor>("verlSteps")->field()->problem().contains("below 1"));
    }

    void rocprofTables()
    {
        ConfigureWorkspace ws;
        ws.show();
        const QString root = cfgtest::rlinfRoot("rlinf-with-profile");
        ws.openConfig({root}, "maniskill_ppo_mlp");
        QVERIFY(settle(ws));
        ws.panels()->panel<RLinfGeneralPanel>("rlinfGeneral")->backend()->setCurrentText("rocprof_sys");
        // nsight-only keys must go for rocprof_sys (unknown-field check), as a user does in the list.
        typeInto(ws.panes()->overrides()->input(), "~cluster.profiling.options");
        typeInto(ws.panes()->overrides()->input(), "~cluster.profiling.flags");
        QVERIFY(settle(ws));
        ws.panels()->panel<RocprofPanel>("rocprof")->args()->setEntry("T", "hip");
        ws.panels()->panel<RocprofPanel>("rocprof")->args()->setEntry("output-format", "json");
        ws.panels()->panel<RocprofPanel>("rocprof")->env()->setEntry("ROCPROFSYS_SAMPLING_FREQ", "100");
        QVERIFY(settle(ws));
        compareWithEngine(ws, root, "maniskill_ppo_mlp", true);
        const auto *w = worker(ws.result()->analysis->launch, "ActorGroup:0");
        QVERIFY(w && w->wrapped);
        QCOMPARE(w->command, std::string("rocprof-sys-python -T hip --output-format=json -- /usr/bin/python3"));
        QCOMPARE(ws.panels()->panel<RocprofPanel>("rocprof")->args()->table()->rowCount(),
                 3); // two entries + the add row
    }

    void presetsAreBaselines()
    {
        // RLinf: the unmodified tree plus the preset = the with-profile tree.
        ConfigureWorkspace ws;
        ws.show();
        const QString plain = cfgtest::rlinfRoot("rlinf");
        ws.openConfig({plain}, "maniskill_ppo_mlp", {}, "rlinf/profile-default");
        QVERIFY(settle(ws));
        QCOMPARE(toQt(ws.session()->allOverrides()), QStringList{"+profile@cluster.profiling=default"});
        const cfgtest::EngineRun withProfile =
            engine(cfgtest::rlinfRoot("rlinf-with-profile"), "maniskill_ppo_mlp", {}, true);
        QVERIFY(withProfile.analysis);
        QCOMPARE(ws.result()->analysis->model.rlinf.options, withProfile.analysis->model.rlinf.options);
        QCOMPARE(ws.panes()->diff()->toPlainText(), QString("No difference from the preset."));

        // verl: the nsys recipe composes to V1.
        ConfigureWorkspace v;
        v.show();
        v.openConfig({cfgtest::verlRoot()}, "ppo_trainer");
        QVERIFY(settle(v));
        v.applyPreset("verl/nsys");
        QVERIFY(settle(v));
        QCOMPARE(toQt(v.session()->allOverrides()), QStringList{"+verl=nsys"});
        QVERIFY2(v.result()->composed, v.result()->error.c_str());
        setRaySession(v);
        QCOMPARE(v.panes()->launchPlan()->commandOf("TaskRunner").toStdString(), kV1Controller);
        QCOMPARE(worker(v.result()->analysis->launch, "global_pool:0")->command, kV1Worker);
        // Each verl recipe composes and selects its tool.
        for (const char *tool : {"npu", "torch", "torch_memory"}) {
            v.applyPreset(QString("verl/") + tool);
            QVERIFY(settle(v));
            QVERIFY2(v.result()->composed, v.result()->error.c_str());
            QCOMPARE(v.result()->analysis->model.backend(), std::string(tool));
            QCOMPARE(v.result()->analysis->model.verl.role("actor")->enable, true);
        }
        // Undoing the preset changes goes back to nsys.
        v.session()->undoStack()->undo();
        v.session()->undoStack()->undo();
        v.session()->undoStack()->undo();
        QVERIFY(settle(v));
        QCOMPARE(v.result()->analysis->model.backend(), std::string("nsys"));
    }

    void diagnosticFocusesItsControl()
    {
        ConfigureWorkspace ws;
        ws.resize(1500, 950);
        ws.show();
        QVERIFY(QTest::qWaitForWindowExposed(&ws));
        ws.openConfig({cfgtest::rlinfRoot("rlinf-with-profile")}, "maniskill_ppo_mlp");
        QVERIFY(settle(ws));
        typeInto(ws.panels()->panel<StepsEditor>("rlinfSteps")->field(), "3, 10, 50");
        QVERIFY(settle(ws));
        QCOMPARE(toQt(ws.session()->state().edits), QStringList{"+cluster.profiling.steps=[3,10,50]"});
        DiagnosticsPane *d = ws.panes()->diagnostics();
        QTreeWidgetItem *multi = nullptr;
        for (int i = 0; i < d->topLevelItemCount(); ++i)
            if (d->topLevelItem(i)->text(2) == "rlinf.multi-step-stop")
                multi = d->topLevelItem(i);
        QVERIFY2(multi, "multi-step capture with capture-range-end=stop is flagged");
        ws.panels()->setCurrentIndex(3); // somewhere else
        ws.panes()->setCurrentWidget(d);
        d->scrollToItem(multi);
        QTest::mouseClick(d->viewport(), Qt::LeftButton, {}, d->visualItemRect(multi).center());
        QApplication::processEvents();
        QWidget *focus = QApplication::focusWidget();
        QVERIFY(focus);
        // The rule is about steps or the capture-range-end option: either control, on its page.
        const bool onSteps = focus == ws.panels()->panel<StepsEditor>("rlinfSteps")->field();
        const bool onOption = focus == ws.panels()->panel<NsightPanel>("rlinfNsight")->option("capture-range-end");
        QVERIFY2(onSteps || onOption, qPrintable(focus->objectName()));
        QVERIFY(focus->isVisible());

        // A key without a control reveals its YAML line.
        QVERIFY(ws.focusKey("runner.logger.log_path"));
        QCOMPARE(ws.panes()->currentWidget(), static_cast<QWidget *>(ws.panes()->yaml()));
        QVERIFY(ws.panes()->yaml()->textCursor().selectedText().contains("log_path"));
    }

    void yamlHoverShowsProvenance()
    {
        ConfigureWorkspace ws;
        ws.show();
        ws.openConfig({cfgtest::rlinfRoot("rlinf-with-profile")}, "maniskill_ppo_mlp");
        QVERIFY(settle(ws));
        typeInto(ws.panels()->panel<StepsEditor>("rlinfSteps")->field(), "3");
        QVERIFY(settle(ws));
        const auto &keys = ws.result()->yamlKeys;
        const int backendLine = keys.keyLines.at("cluster.profiling.backend");
        const QString tip = ws.panes()->yaml()->provenanceAt(backendLine);
        QVERIFY2(tip.contains("profile/default.yaml:1"), qPrintable(tip));
        const int stepsLine = keys.keyLines.at("cluster.profiling.steps");
        QVERIFY2(ws.panes()->yaml()->provenanceAt(stepsLine).contains("+cluster.profiling.steps=[3]"),
                 qPrintable(ws.panes()->yaml()->provenanceAt(stepsLine)));
    }

    void defaultsTreeSwapsAnOption()
    {
        ConfigureWorkspace ws;
        ws.show();
        const QString root = cfgtest::verlRoot();
        ws.openConfig({root}, "ppo_trainer");
        QVERIFY(settle(ws));
        auto *combo = ws.panes()->defaults()->findChild<QComboBox *>("choice:actor");
        QVERIFY(combo);
        QCOMPARE(combo->currentText(), QString("dp_actor"));
        QVERIFY(combo->findText("actor") >= 0);
        combo->setCurrentText("actor");
        QVERIFY(settle(ws));
        QCOMPARE(toQt(ws.session()->state().edits), QStringList{"actor@actor_rollout_ref.actor=actor"});
        const cfgtest::EngineRun run = engine(root, "ppo_trainer", ws.session()->allOverrides(), false);
        QVERIFY2(run.analysis, run.error.c_str()); // the swapped option composes
        QCOMPARE(ws.result()->error, run.error);
        QCOMPARE(ws.result()->yaml, run.analysis->exports.yaml);
    }

    void unsavedChangesGuardAndScript()
    {
        ConfigureWorkspace ws;
        ws.show();
        ws.openConfig({cfgtest::verlRoot()}, "ppo_trainer");
        QVERIFY(settle(ws));
        QVERIFY(ws.confirmClose()); // nothing edited
        ws.panels()->panel<VerlGlobalPanel>("verlGlobal")->tool()->setCurrentText("torch");
        QVERIFY(settle(ws));
        int asked = 0;
        ws.setCloseQuestion([&] {
            ++asked;
            return int(QMessageBox::Cancel);
        });
        QVERIFY(!ws.confirmClose());
        QCOMPARE(asked, 1);
        ws.setCloseQuestion([] { return int(QMessageBox::Discard); });
        QVERIFY(ws.confirmClose());
        // Saving an export marks the session clean.
        QTemporaryDir dir;
        QCOMPARE(ws.exports()->saveLaunchScript(dir.filePath("run.sh")), QString());
        const QString script = readFile(dir.filePath("run.sh"));
        QVERIFY(script.startsWith("#!/usr/bin/env bash\n"));
        QVERIFY(script.contains(ws.exports()->rayJobText().trimmed()));
        QVERIFY(QFileInfo(dir.filePath("run.sh")).isExecutable());
        QVERIFY(ws.session()->undoStack()->isClean());
        // The collect script is the engine's for the same config, executable.
        QCOMPARE(ws.exports()->saveCollectScript(dir.filePath("collect.sh")), QString());
        const cfgtest::EngineRun run = engine(cfgtest::verlRoot(), "ppo_trainer", ws.session()->allOverrides(), false);
        QVERIFY2(run.analysis, run.error.c_str());
        QCOMPARE(readFile(dir.filePath("collect.sh")).toStdString(), run.analysis->exports.collect);
        QVERIFY(QFileInfo(dir.filePath("collect.sh")).isExecutable());
        // So is the Ray digest job.
        QCOMPARE(ws.exports()->saveRayDigestJob(dir.filePath("job.py")), QString());
        QCOMPARE(readFile(dir.filePath("job.py")).toStdString(), run.analysis->exports.rayDigest);
        QVERIFY(readFile(dir.filePath("job.py")).contains("NodeAffinitySchedulingStrategy"));
        ws.setCloseQuestion([&] {
            ++asked;
            return int(QMessageBox::Cancel);
        });
        QVERIFY(ws.confirmClose());
        QCOMPARE(asked, 1);
    }

    void scheduleHelperDecodeSteps()
    {
        ConfigureWorkspace ws;
        ScheduleHelper *s = ws.panels()->panel<ScheduleHelper>("scheduleHelper");
        // It fits the panel of a 1280-px window (about 500 px) without a horizontal scroll bar.
        QVERIFY2(s->minimumSizeHint().width() <= 480, qPrintable(QString::number(s->minimumSizeHint().width())));
        s->rangeFirst()->setValue(30);
        s->rangeEnd()->setValue(60);
        s->warmup()->setValue(1);
        QTest::mouseClick(s->findChild<QPushButton *>("fillSchedule"), Qt::LeftButton);
        QCOMPARE(s->wait()->value(), 29);
        QCOMPARE(s->warmup()->value(), 1);
        QCOMPARE(s->active()->value(), 30);
        QCOMPARE(s->repeat()->value(), 1);
        QVERIFY2(s->code().contains("torch.profiler.schedule(wait=29, warmup=1, active=30, repeat=1)"),
                 qPrintable(s->code()));
        s->setApi(ScheduleApi::TorchNpu);
        QVERIFY(s->code().contains("torch_npu.profiler.schedule(wait=29, warmup=1, active=30, repeat=1)"));
        QVERIFY(s->code().contains("torch_npu.profiler.tensorboard_trace_handler('./profiler_logs')"));
    }

    // The Launch tab: what the user types there (interpreter, Ray session dir, node count)
    // reaches the plan exactly as the engine builds it with the same launch options; it is not
    // an edit of the config (no undo entry, the composed YAML is unchanged).
    void launchTabShapesThePlan()
    {
        ConfigureWorkspace ws;
        ws.resize(1500, 950);
        ws.show();
        ws.openConfig({cfgtest::verlRoot()}, "ppo_trainer", toQt(kV1Overrides));
        QVERIFY(settle(ws));
        const std::string yamlBefore = ws.result()->yaml;
        const int undoBefore = ws.session()->undoStack()->count();

        auto *python = ws.findChild<QLineEdit *>("python");
        auto *session = ws.findChild<QLineEdit *>("raySessionDir");
        auto *nodes = ws.findChild<QSpinBox *>("numNodes");
        QVERIFY(python && session && nodes);
        // verl's plan uses none of RLinf's settings: the tab does not offer them.
        for (const char *rlinfOnly : {"python", "rlinfRepo", "driverCwd", "logPath", "experimentName"})
            QVERIFY2(!ws.panels()
                          ->panel<LaunchSettingsPanel>("launchSettings")
                          ->isRowShown(ws.findChild<QLineEdit *>(rlinfOnly)),
                     rlinfOnly);
        QVERIFY(ws.panels()->panel<LaunchSettingsPanel>("launchSettings")->isRowShown(session));
        typeInto(session, "/data/ray/session_2026");
        nodes->setFocus();
        nodes->selectAll();
        QTest::keyClicks(nodes, "2");
        QTest::keyClick(nodes, Qt::Key_Return);
        QVERIFY(settle(ws));

        QCOMPARE(ws.session()->launchOptions().raySessionDir, std::string("/data/ray/session_2026"));
        QCOMPARE(ws.session()->cluster().numNodes.value_or(0), 2LL);
        QCOMPARE(ws.session()->undoStack()->count(), undoBefore);
        QCOMPARE(ws.result()->yaml, yamlBefore);

        // The engine with the same options gives the plan the pane shows.
        ps::core::profiling::AnalysisInput in;
        in.compose = ws.result()->compose;
        in.composed = ws.result()->composed;
        in.launch = ws.session()->launchOptions();
        in.cluster = ws.session()->cluster();
        const auto engineRun = ps::core::profiling::analyze(in);
        const auto &plan = ws.result()->analysis->launch;
        QCOMPARE(plan.workers.size(), engineRun->launch.workers.size());
        bool sawNode1 = false;
        for (const auto &w : engineRun->launch.workers) {
            QCOMPARE(ws.panes()->launchPlan()->commandOf(QString::fromStdString(w.name)).toStdString(), w.command);
            sawNode1 = sawNode1 || w.node == 1;
        }
        QVERIFY(sawNode1); // two nodes: workers on the second one too
        QVERIFY(!plan.collect.empty());
        for (const auto &[node, dir] : plan.collect)
            QVERIFY2(dir.rfind("/data/ray/session_2026/logs/nsight", 0) == 0, dir.c_str());
        QCOMPARE(ws.result()->analysis->exports.collect, engineRun->exports.collect);

        // Clearing a field goes back to the default.
        session->setFocus();
        session->selectAll();
        QTest::keyClick(session, Qt::Key_Backspace);
        QTest::keyClick(session, Qt::Key_Return);
        QVERIFY(settle(ws));
        QCOMPARE(ws.session()->launchOptions().raySessionDir, ps::core::profiling::LaunchOptions().raySessionDir);
    }

    // An RLinf config without cluster.profiling reads as such: no backend or "enabled" that the
    // file does not have, and one click adds RLinf's own preset.
    void missingProfilingReadsAsMissing()
    {
        ConfigureWorkspace ws;
        ws.resize(1280, 720);
        ws.show();
        ws.openConfig({cfgtest::rlinfRoot("rlinf")}, "maniskill_ppo_mlp",
                      {QString::fromStdString("runner.logger.log_path=" + kLogPath)});
        QVERIFY(settle(ws));
        QVERIFY2(ws.result()->composed, ws.result()->error.c_str());
        QVERIFY(!ps::core::config::findPath(ws.result()->composed->config, "cluster.profiling"));
        RLinfGeneralPanel *general = ws.panels()->panel<RLinfGeneralPanel>("rlinfGeneral");
        QVERIFY(general->addButton()->isVisible());
        QVERIFY(!general->enabled()->isVisible());
        QVERIFY(!general->backend()->isVisible());
        QVERIFY(!ws.panels()->panel<WorkerGroupsPanel>("workerGroups")->isEnabled());
        QVERIFY(!ws.panels()->panel<StepsEditor>("rlinfSteps")->isEnabled());

        QTest::mouseClick(general->addButton(), Qt::LeftButton);
        QVERIFY(settle(ws));
        QVERIFY(ws.session()->state().edits.back() == "+profile@cluster.profiling=default");
        const auto *backend = ps::core::config::findPath(ws.result()->composed->config, "cluster.profiling.backend");
        QVERIFY(backend && backend->asString() == "nsight");
        QVERIFY(!general->addButton()->isVisible());
        QVERIFY(general->backend()->isVisible());
        QCOMPARE(general->backend()->currentText(), QString("nsight"));
        QVERIFY(ws.panels()->panel<WorkerGroupsPanel>("workerGroups")->isEnabled());

        // Without a backend the combo is empty, as Diagnostics says; it never shows a stale one.
        ws.session()->removeKey("cluster.profiling.backend");
        QVERIFY(settle(ws));
        QCOMPARE(general->backend()->currentIndex(), -1);
        const auto rules = ws.panes()->diagnostics()->findItems("rlinf.backend-missing", Qt::MatchExactly, 2);
        QCOMPARE(rules.size(), 1);
        ws.session()->undoStack()->undo();
        QVERIFY(settle(ws));
        QCOMPARE(general->backend()->currentText(), QString("nsight"));
    }

    // Text that is not a valid value is an error in Diagnostics at its key, the YAML keeps the
    // old value, and exports are refused until it is fixed.
    void invalidFieldIsADiagnosticAndBlocksExports()
    {
        ConfigureWorkspace ws;
        ws.resize(1280, 720);
        ws.show();
        const QString root = cfgtest::rlinfRoot("rlinf-with-profile");
        ws.openConfig({root}, "maniskill_ppo_mlp", {QString::fromStdString("runner.logger.log_path=" + kLogPath)});
        QVERIFY(settle(ws));
        QCOMPARE(ws.panes()->diagnostics()->errorCount(), 0);
        const std::string yamlBefore = ws.result()->yaml;
        QLineEdit *steps = ws.panels()->panel<StepsEditor>("rlinfSteps")->field();
        typeInto(steps, "0,x,9-3");
        QVERIFY(settle(ws));
        QCOMPARE(ws.result()->yaml, yamlBefore);
        QCOMPARE(steps->text(), QString("0,x,9-3")); // the user's text stays, flagged
        QCOMPARE(ws.panes()->diagnostics()->fieldProblemCount(), 1);
        const QTreeWidgetItem *row = ws.panes()->diagnostics()->topLevelItem(0);
        QCOMPARE(row->text(0), QString("error"));
        QCOMPARE(row->text(2), QString("form.invalid-value"));
        QCOMPARE(row->text(3), QString("form: cluster.profiling.steps"));
        QVERIFY2(row->text(1).contains("0,x,9-3") && row->text(1).contains("'x'") &&
                     row->text(1).contains("does not set it"),
                 qPrintable(row->text(1)));
        QVERIFY(ws.panes()->tabText(2).startsWith("Diagnostics (1"));

        QTemporaryDir dir;
        const QString out = dir.filePath("out.yaml");
        const QString err = ws.exports()->saveYaml(out, false);
        QVERIFY2(err.contains("not a valid value"), qPrintable(err));
        QVERIFY(!QFile::exists(out));
        QVERIFY(!ws.exports()->saveLaunchScript(dir.filePath("l.sh")).isEmpty());

        // Activating the row focuses the field.
        ws.setFocus();
        emit ws.panes()->diagnostics()->keyActivated("cluster.profiling.steps");
        QVERIFY(steps->hasFocus());

        typeInto(steps, "3");
        QVERIFY(settle(ws));
        QCOMPARE(ws.panes()->diagnostics()->fieldProblemCount(), 0);
        QVERIFY(ws.exports()->saveYaml(out, false).isEmpty());
        QVERIFY(readFile(out).contains("- 3"));
    }

    // The start page lists recent configs; clicking one opens it.
    void startPageOpensRecentConfig()
    {
        const QString file = cfgtest::verlRoot() + "/ppo_trainer.yaml";
        ps::views::RecentFiles recents("recent/configs");
        recents.clear();
        recents.add(file);
        ConfigureWorkspace ws;
        ws.show();
        QSignalSpy opened(&ws, &Workspace::openedPath);
        auto *button = ws.findChild<QPushButton *>("recent:" + QFileInfo(file).absoluteFilePath());
        QVERIFY(button);
        QVERIFY2(button->text().contains("ppo_trainer.yaml"), qPrintable(button->text()));
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(settle(ws));
        QCOMPARE(opened.count(), 1);
        QVERIFY(ws.result() && ws.result()->analysis);
        QCOMPARE(ws.result()->analysis->model.framework, ps::core::profiling::Framework::Verl);
        QCOMPARE(ws.currentPath(), QFileInfo(file).absoluteFilePath());
        recents.clear();
    }

    void openPathsAndStartPage()
    {
        ConfigureWorkspace ws;
        QSignalSpy opened(&ws, &Workspace::openedPath);
        QVERIFY(!ws.accepts(cfgtest::verlRoot())); // a folder is not a primary config
        const QString file = cfgtest::verlRoot() + "/ppo_trainer.yaml";
        QVERIFY(ws.accepts(file));
        ws.openPaths({file});
        QCOMPARE(opened.count(), 1);
        QVERIFY(settle(ws));
        QCOMPARE(ws.result()->analysis->model.framework, ps::core::profiling::Framework::Verl);
        QCOMPARE(ws.currentPath(), QFileInfo(file).absoluteFilePath());
    }
};

QTEST_MAIN(TestConfigureWorkspace)
#include "tst_configureworkspace.moc"
