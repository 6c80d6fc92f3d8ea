// The Configure workspace on verl's real config trees of each release (../shared/testdata/
// configs/verl-versions and the older configs/verl), driven with QTest offscreen: the header
// names the release, the panels offer only what that release has (nothing of one release shows
// on another), the release picker overrides the detection as --verl-version does, the tooltips
// carry upstream's documentation, and every panel edit becomes an override whose composed YAML
// equals the engine's.
#include "configuretestutil.h"

#include "core/config/keypath.h"
#include "core/profiling/digesthook.h"
#include "views/config/configsession.h"
#include "views/config/configurepanels.h"
#include "views/config/configurepanes.h"
#include "views/config/defaultstreepane.h"
#include "views/config/intlistfield.h"
#include "views/config/verlpanels.h"
#include "views/config/verlreleasepanels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTextDocument>
#include <QTreeWidget>

using namespace ps::views;
using namespace ps::core::configedit;
using cfgtest::settle;
using cfgtest::toQt;

namespace {

QString versionsRoot(const QString &tree)
{
    return cfgtest::testdata("configs/verl-versions/" + tree + "/verl/trainer/config");
}

// The primary config users open, ppo_trainer.yaml (0.7.1+ select their engine files through
// defaults-list interpolation), of each release tree.
struct Tree
{
    const char *tag;
    QString root;
    const char *config;
};
std::vector<Tree> trees()
{
    return {{"verl-0.7.0", cfgtest::verlRoot(), "ppo_trainer"},
            {"verl-0.7.1", versionsRoot("v0.7.1"), "ppo_trainer"},
            {"verl-0.9.0", versionsRoot("v0.9.0"), "ppo_trainer"},
            {"verl-main", versionsRoot("main-1dda039b"), "ppo_trainer"}};
}

void open(ConfigureWorkspace &ws, const QString &root, const QString &config)
{
    ws.resize(1500, 950);
    ws.show();
    ws.openConfig({root}, config);
    QVERIFY(settle(ws));
    QVERIFY2(ws.result()->composed, ws.result()->error.c_str());
}

// Chooses an entry of a combo box with the keyboard, as a user does (emits activated()).
void chooseWithKeys(QComboBox *combo, const QString &text)
{
    const int target = combo->findText(text);
    QVERIFY2(target >= 0, qPrintable(text));
    combo->setFocus();
    while (combo->currentIndex() != target)
        QTest::keyClick(combo, combo->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
}

void typeInto(QLineEdit *field, const QString &text)
{
    field->setFocus();
    field->selectAll();
    QTest::keyClicks(field, text);
    QTest::keyClick(field, Qt::Key_Return);
}

// Shows the panel tab holding `w` (as a user switches to it), then clicks the box.
void click(QCheckBox *box)
{
    for (QWidget *p = box; p; p = p->parentWidget())
        if (auto *tabs = qobject_cast<QTabWidget *>(p->parentWidget() ? p->parentWidget()->parentWidget() : nullptr))
            tabs->setCurrentWidget(p);
    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(4, box->height() / 2));
}

QStringList items(QComboBox *combo)
{
    QStringList l;
    for (int i = 0; i < combo->count(); ++i)
        l << combo->itemText(i);
    return l;
}

// The header's version text without markup.
QString versionText(ConfigureWorkspace &ws)
{
    QTextDocument doc;
    doc.setHtml(ws.findChild<QLabel *>("verlVersion")->text());
    return doc.toPlainText();
}

// The workspace's YAML equals the engine's for the same base + overrides, and `key` holds `value`.
void expectComposed(ConfigureWorkspace &ws, const QString &root, const QString &config, const std::string &key,
                    const std::string &value)
{
    const cfgtest::EngineRun run = cfgtest::engine(root, config, ws.session()->allOverrides(), false);
    QVERIFY2(run.analysis, run.error.c_str());
    QCOMPARE(ws.result()->yaml, run.analysis->exports.yaml);
    const ps::core::config::Node *n = ps::core::config::findPath(ws.result()->composed->config, key);
    QVERIFY2(n, key.c_str());
    QCOMPARE(n->isStringLike() ? n->asString() : n->toPythonString(), value);
}

} // namespace

class TestVerlReleases : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("ProfStudioTest");
        QCoreApplication::setApplicationName("tst_verlreleases");
    }

    void headerNamesTheRelease_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("header");
        const QStringList expected = {"verl 0.5-0.7.0 (detected)", "verl 0.7.1 (detected)", "verl 0.9 (detected)",
                                      "verl main (detected)"};
        const std::vector<Tree> t = trees();
        QCOMPARE(t.size(), size_t(expected.size()));
        for (size_t i = 0; i < t.size(); ++i) {
            QTest::newRow(t[i].tag) << t[i].root << QString(t[i].config) << expected[int(i)];
            // verl's own flattened composition of the same tree says the same.
            if (i > 0)
                QTest::newRow(qPrintable(QString(t[i].tag) + "-generated"))
                    << t[i].root << "_generated_ppo_trainer" << expected[int(i)];
        }
        QTest::newRow("rlinf") << cfgtest::rlinfRoot("rlinf-with-profile") << "maniskill_ppo_mlp"
                               << "RLinf";
    }
    void headerNamesTheRelease()
    {
        QFETCH(QString, root);
        QFETCH(QString, config);
        QFETCH(QString, header);
        ConfigureWorkspace ws;
        open(ws, root, config);
        QCOMPARE(versionText(ws), header);
        QCOMPARE(ws.findChild<QComboBox *>("verlVersionPick")->isVisibleTo(&ws), header.startsWith("verl"));
        if (header.startsWith("verl"))
            QVERIFY(ws.findChild<QLabel *>("verlVersion")
                        ->toolTip()
                        .contains("present")); // why: the schema key that decided
    }

    // Which panels and fields each release shows; none of one release's leaks into another.
    void panelsFollowTheRelease_data()
    {
        QTest::addColumn<QString>("root");
        QTest::addColumn<QString>("config");
        QTest::addColumn<bool>("rewardModel");       // reward_model.profiler row (gone from 0.7.1)
        QTest::addColumn<bool>("oldTorchContents");  // profile-by-stage (gone from 0.7.1)
        QTest::addColumn<bool>("precisionDebugger"); // tool + panel (0.8+)
        QTest::addColumn<bool>("schedule");          // torch schedule (0.9+)
        QTest::addColumn<bool>("rollout");           // rollout profiler block with token window (0.9+)
        QTest::addColumn<bool>("hooks");             // relocate_results + finish hook (main)
        const std::vector<Tree> t = trees();
        QVERIFY(!t.empty());
        const bool rows[][6] = {{true, true, false, false, false, false},
                                {false, false, false, false, false, false},
                                {false, false, true, true, true, false},
                                {false, false, true, true, true, true}};
        for (size_t i = 0; i < t.size(); ++i)
            QTest::newRow(t[i].tag) << t[i].root << QString(t[i].config) << rows[i][0] << rows[i][1] << rows[i][2]
                                    << rows[i][3] << rows[i][4] << rows[i][5];
    }
    void panelsFollowTheRelease()
    {
        QFETCH(QString, root);
        QFETCH(QString, config);
        QFETCH(bool, rewardModel);
        QFETCH(bool, oldTorchContents);
        QFETCH(bool, precisionDebugger);
        QFETCH(bool, schedule);
        QFETCH(bool, rollout);
        QFETCH(bool, hooks);
        ConfigureWorkspace ws;
        open(ws, root, config);
        const auto shown = [&](const char *name) {
            QWidget *w = ws.findChild<QWidget *>(name);
            return w && !w->isHidden();
        };
        QCOMPARE(shown("role-reward_model"), rewardModel);
        QCOMPARE(shown("enable-reward_model"), rewardModel);
        QVERIFY(shown("enable-actor"));
        QCOMPARE(shown("torch-profile-by-stage"), oldTorchContents);
        QCOMPARE(shown("torch-merge-profiles"), oldTorchContents);
        QVERIFY(shown("torch-cuda"));
        QCOMPARE(items(ws.panels()->panel<VerlGlobalPanel>("verlGlobal")->tool()).contains("precision_debugger"),
                 precisionDebugger);
        QCOMPARE(shown("precisionDebuggerBox"), precisionDebugger);
        QCOMPARE(shown("torchScheduleBox"), schedule);
        QCOMPARE(shown("rolloutSection"), rollout);
        QCOMPARE(shown("hooksSection"), hooks);
        // The tool list is the release's own, nothing more.
        const auto &tools = ps::core::profiling::verlVersionTraits(ws.result()->analysis->model.verl.version).tools;
        QCOMPARE(items(ws.panels()->panel<VerlGlobalPanel>("verlGlobal")->tool()),
                 QStringList{"null (off)"} + toQt(tools));
    }

    void tooltipsCarryUpstreamDocs()
    {
        ConfigureWorkspace ws;
        open(ws, versionsRoot("main-1dda039b"), "ppo_trainer");
        QVERIFY(ws.panels()
                    ->panel<VerlHooksPanel>("verlHooks")
                    ->relocate()
                    ->toolTip()
                    .startsWith("global_profiler.relocate_results\n\n"));
        QVERIFY(ws.panels()
                    ->panel<VerlHooksPanel>("verlHooks")
                    ->relocate()
                    ->toolTip()
                    .contains("Ray hardcodes under /tmp/ray/session_latest/logs/nsight"));
        QVERIFY(ws.panels()
                    ->panel<VerlHooksPanel>("verlHooks")
                    ->finishHookCmd()
                    ->toolTip()
                    .contains("VERL_PROFILE_RAY_NSIGHT_DIR (nsys only)"));
        QVERIFY(ws.panels()
                    ->panel<VerlToolPanel>("verlTools")
                    ->torchSchedule()
                    ->field("active")
                    ->toolTip()
                    .contains("<= 0 disables scheduling (record the whole update loop)"));
        QVERIFY(ws.panels()
                    ->panel<VerlRolloutProfilerPanel>("verlRollout")
                    ->tokenField("torch", "start")
                    ->toolTip()
                    .contains("actor_rollout_ref.rollout.profiler.tool_config.torch.profile_token_start"));
        QVERIFY(ws.panels()
                    ->panel<VerlToolPanel>("verlTools")
                    ->precisionDebugger()
                    ->stage("actor_update")
                    ->toolTip()
                    .contains("Supported stages"));
    }

    void pickerOverridesTheDetection()
    {
        ConfigureWorkspace ws;
        open(ws, versionsRoot("main-1dda039b"), "ppo_trainer");
        QCOMPARE(versionText(ws), QString("verl main (detected)"));
        chooseWithKeys(ws.findChild<QComboBox *>("verlVersionPick"), "verl 0.7.1");
        QVERIFY(settle(ws));
        QCOMPARE(ws.session()->verlVersion(), ps::core::profiling::VerlVersion::V0_7_1);
        QCOMPARE(ws.result()->analysis->model.verl.version, ps::core::profiling::VerlVersion::V0_7_1);
        QCOMPARE(versionText(ws), QString("verl 0.7.1 (chosen; detected main)"));
        QVERIFY(ws.findChild<QWidget *>("hooksSection")->isHidden());
        QVERIFY(ws.findChild<QWidget *>("torchScheduleBox")->isHidden());
        QVERIFY(!items(ws.panels()->panel<VerlGlobalPanel>("verlGlobal")->tool()).contains("precision_debugger"));
        QVERIFY(ws.session()->state().edits.empty()); // a rule choice, not a config edit
        chooseWithKeys(ws.findChild<QComboBox *>("verlVersionPick"), "detected");
        QVERIFY(settle(ws));
        QCOMPARE(ws.session()->verlVersion(), std::nullopt);
        QCOMPARE(versionText(ws), QString("verl main (detected)"));
        QVERIFY(!ws.findChild<QWidget *>("hooksSection")->isHidden());
    }

    // Each new panel edits through the override list; the YAML follows.
    void scheduleAndTokenEditsBecomeOverrides()
    {
        ConfigureWorkspace ws;
        const QString root = versionsRoot("v0.9.0");
        open(ws, root, "ppo_trainer");
        QSpinBox *active = ws.panels()->panel<VerlToolPanel>("verlTools")->torchSchedule()->field("active");
        ws.panels()->setCurrentIndex(1); // Backend
        QVERIFY(active->isVisible());
        active->setFocus();
        active->selectAll();
        QTest::keyClicks(active, "3");
        QVERIFY(settle(ws));
        ws.panels()->setCurrentIndex(0); // Profiling
        QLineEdit *tokenEnd = ws.panels()->panel<VerlRolloutProfilerPanel>("verlRollout")->tokenField("torch", "end");
        QVERIFY(tokenEnd->isVisible());
        typeInto(tokenEnd, "512");
        QVERIFY(settle(ws));
        QCOMPARE(toQt(ws.session()->state().edits),
                 QStringList({"actor_rollout_ref.actor.profiler.tool_config.torch.schedule.active=3",
                              "actor_rollout_ref.rollout.profiler.tool_config.torch.profile_token_end=512"}));
        expectComposed(ws, root, "ppo_trainer", "actor_rollout_ref.actor.profiler.tool_config.torch.schedule.active",
                       "3");
        expectComposed(ws, root, "ppo_trainer",
                       "actor_rollout_ref.rollout.profiler.tool_config.torch.profile_token_end", "512");
        QVERIFY(ws.panels()
                    ->panel<VerlToolPanel>("verlTools")
                    ->torchSchedule()
                    ->state()
                    ->text()
                    .startsWith("Scheduling on"));
        QCOMPARE(ws.result()->analysis->model.verl.role("actor")->torchSchedule.active, 3);
    }

    void hookAndDebuggerEditsBecomeOverrides()
    {
        ConfigureWorkspace ws;
        const QString root = versionsRoot("main-1dda039b");
        const QString config = "ppo_trainer";
        open(ws, root, config);
        click(ws.panels()->panel<VerlHooksPanel>("verlHooks")->relocate());
        QVERIFY(settle(ws));
        typeInto(ws.panels()->panel<VerlHooksPanel>("verlHooks")->finishHookCmd(),
                 "mlx asset upload $VERL_PROFILE_SAVE_PATH");
        QVERIFY(settle(ws));
        typeInto(ws.panels()->panel<VerlHooksPanel>("verlHooks")->finishHookRanks(), "0,8");
        QVERIFY(settle(ws));
        click(ws.panels()->panel<VerlToolPanel>("verlTools")->precisionDebugger()->stage("actor_update"));
        QVERIFY(settle(ws));
        click(ws.panels()->panel<VerlToolPanel>("verlTools")->precisionDebugger()->strict());
        QVERIFY(settle(ws));
        QStringList edits = toQt(ws.session()->state().edits);
        QCOMPARE(edits.size(), 5);
        // The hook's quoting is the override writer's (overrideedits.h); its value is checked below.
        QVERIFY2(edits.takeAt(1).startsWith("global_profiler.finish_hook_cmd="), qPrintable(edits.join('\n')));
        QCOMPARE(edits, QStringList({"global_profiler.relocate_results=true", "global_profiler.finish_hook_ranks=[0,8]",
                                     "global_profiler.global_tool_config.precision_debugger.stages=[actor_update]",
                                     "global_profiler.global_tool_config.precision_debugger.strict=true"}));
        expectComposed(ws, root, config, "global_profiler.relocate_results", "True");
        expectComposed(ws, root, config, "global_profiler.finish_hook_ranks", "[0, 8]");
        expectComposed(ws, root, config, "global_profiler.finish_hook_cmd", "mlx asset upload $VERL_PROFILE_SAVE_PATH");
        expectComposed(ws, root, config, "global_profiler.global_tool_config.precision_debugger.stages",
                       "['actor_update']");
        const auto &verl = ws.result()->analysis->model.verl;
        QVERIFY(verl.relocateResults);
        QCOMPARE(verl.finishHookCmd.value_or(""), std::string("mlx asset upload $VERL_PROFILE_SAVE_PATH"));
        // Shown back from the composed config.
        QVERIFY(ws.panels()->panel<VerlHooksPanel>("verlHooks")->relocate()->isChecked());
        QVERIFY(
            ws.panels()->panel<VerlToolPanel>("verlTools")->precisionDebugger()->stage("actor_update")->isChecked());
        QVERIFY(
            !ws.panels()->panel<VerlToolPanel>("verlTools")->precisionDebugger()->stage("critic_update")->isChecked());
    }

    // "Digest with ProfStudio" sets the finish hook to the digest command; the plan runs it on the
    // profiled ranks after the last profiled step, and no longer suggests it in its notes.
    void digestHookButton()
    {
        ConfigureWorkspace ws;
        const QString root = versionsRoot("main-1dda039b");
        ws.resize(1500, 950);
        ws.show();
        ws.openConfig({root}, "ppo_trainer",
                      {"global_profiler.tool=nsys", "global_profiler.steps=[1,2]",
                       "actor_rollout_ref.actor.profiler.enable=True"});
        QVERIFY(settle(ws));
        QVERIFY2(ws.result()->composed, ws.result()->error.c_str());
        const auto notes = [&] { return QString::fromStdString(ws.result()->analysis->launch.notes.back()); };
        bool suggested = false;
        for (const std::string &n : ws.result()->analysis->launch.notes)
            suggested = suggested || n.find(ps::core::profiling::kVerlDigestHookCommand) != std::string::npos;
        QVERIFY2(suggested, qPrintable(notes()));
        auto *button = ws.panels()->panel<VerlHooksPanel>("verlHooks")->findChild<QPushButton *>("finishHookDigest");
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(settle(ws));
        QCOMPARE(ws.panels()->panel<VerlHooksPanel>("verlHooks")->finishHookCmd()->text(),
                 QString(ps::core::profiling::kVerlDigestHookCommand));
        const auto &plan = ws.result()->analysis->launch;
        bool hooked = false;
        for (const auto &w : plan.workers)
            for (const auto &h : w.hooks)
                hooked = hooked || h.argv.back() == ps::core::profiling::kVerlDigestHookCommand;
        QVERIFY(hooked);
        for (const std::string &n : plan.notes)
            QVERIFY2(n.find("would digest") == std::string::npos, n.c_str());
    }

    // The per-release presets from the header's preset menu; the panels show what they set.
    void releasePresetsFillThePanels()
    {
        ConfigureWorkspace ws;
        open(ws, versionsRoot("v0.9.0"), "ppo_trainer");
        chooseWithKeys(ws.findChild<QComboBox *>("preset"), "verl 0.9+: PyTorch profiler with a torch schedule");
        QVERIFY(settle(ws));
        QVERIFY2(ws.result()->composed, ws.result()->error.c_str());
        QCOMPARE(toQt(ws.session()->state().preset), QStringList{"+verl=v0_9_torch_schedule"});
        VerlTorchSchedulePanel *schedule = ws.panels()->panel<VerlToolPanel>("verlTools")->torchSchedule();
        QCOMPARE(schedule->field("wait")->value(), 1);
        QCOMPARE(schedule->field("warmup")->value(), 1);
        QCOMPARE(schedule->field("active")->value(), 2);
        QCOMPARE(ws.panels()->panel<VerlGlobalPanel>("verlGlobal")->tool()->currentText(), QString("torch"));

        ConfigureWorkspace main;
        open(main, versionsRoot("main-1dda039b"), "ppo_trainer");
        chooseWithKeys(main.findChild<QComboBox *>("preset"),
                       "verl main: nsys with relocate_results and a finish hook");
        QVERIFY(settle(main));
        QVERIFY(main.panels()->panel<VerlHooksPanel>("verlHooks")->relocate()->isChecked());
        QCOMPARE(main.panels()->panel<VerlHooksPanel>("verlHooks")->finishHookCmd()->text(),
                 QString("tar czf /shared/prof_$VERL_PROFILE_RANK.tgz -C $VERL_PROFILE_SAVE_PATH ."));
    }

    // verl 0.9 picks its engine files with `${model_engine}_actor`: the tree shows the text and
    // the choice, and follows a model_engine swap made in the tree itself.
    void defaultsTreeShowsInterpolatedChoice()
    {
        ConfigureWorkspace ws;
        const QString root = versionsRoot("v0.9.0");
        open(ws, root, "ppo_trainer");
        const auto interpolation = [&](const QString &configPath) {
            for (QTreeWidgetItemIterator it(ws.panes()->defaults()); *it; ++it)
                if ((*it)->text(DefaultsTreePane::ConfigColumn) == configPath)
                    return (*it)->text(DefaultsTreePane::InterpolationColumn);
            return QString("<no %1>").arg(configPath);
        };
        QCOMPARE(interpolation("actor/dp_actor"), QString("${model_engine}_actor \u2192 dp_actor"));
        QCOMPARE(interpolation("critic/dp_critic"), QString("${model_engine}_critic \u2192 dp_critic"));
        QCOMPARE(interpolation("model_engine/dp"), QString());
        auto *engineChoice = ws.panes()->defaults()->findChild<QComboBox *>("choice:model_engine");
        QVERIFY(engineChoice);
        engineChoice->setCurrentText("megatron");
        QVERIFY(settle(ws));
        QCOMPARE(toQt(ws.session()->state().edits), QStringList{"model_engine=megatron"});
        QCOMPARE(interpolation("actor/megatron_actor"), QString("${model_engine}_actor \u2192 megatron_actor"));
        const cfgtest::EngineRun run = cfgtest::engine(root, "ppo_trainer", ws.session()->allOverrides(), false);
        QVERIFY2(run.analysis, run.error.c_str());
        QCOMPARE(ws.result()->yaml, run.analysis->exports.yaml);
    }

    // A verl 0.7.0 tree has no interpolated defaults entries: the column stays empty, and the
    // tree still lists the engine files it chose.
    void defaultsTreeInterpolationColumn()
    {
        ConfigureWorkspace ws;
        open(ws, cfgtest::verlRoot(), "ppo_trainer");
        QTreeWidget *tree = ws.panes()->defaults();
        QCOMPARE(tree->headerItem()->text(DefaultsTreePane::InterpolationColumn), QString("Interpolation"));
        int rows = 0;
        for (QTreeWidgetItemIterator it(tree); *it; ++it, ++rows)
            QCOMPARE((*it)->text(DefaultsTreePane::InterpolationColumn), QString());
        QVERIFY(rows > 10);
    }
};

QTEST_MAIN(TestVerlReleases)
#include "tst_verlreleases.moc"
