#include "views/config/verlreleasepanels.h"

#include "views/config/configsession.h"
#include "views/config/intlistfield.h"
#include "views/config/verldocs.h"

#include "core/profiling/digesthook.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <climits>

namespace ps::views {

using namespace core::configedit;
using core::profiling::kVerlDigestHookCommand;

using core::config::Node;

namespace {

const std::string kGlobal = "global_profiler.";
const std::string kDebugger = "global_profiler.global_tool_config.precision_debugger.";
const std::string kRolloutTools = "actor_rollout_ref.rollout.profiler.tool_config.";

bool boolAt(const SessionResult &r, const std::string &key)
{
    const Node *n = composedNode(r, key);
    return n && n->kind() == Node::Kind::Bool && n->asBool();
}

QString tip(const std::string &key, const QString &field)
{
    return verlTooltip(QString::fromStdString(key), field);
}

// Shows a value unless the user is typing in the field.
void showText(QLineEdit *field, const QString &text)
{
    if (!field->hasFocus())
        quietly(field, [&](QLineEdit *e) { e->setText(text); });
}

// A field for an optional int >= 0 (null when empty), as verl's token window takes it.
QLineEdit *optionalIntField(const QString &name, const QString &tooltip, QWidget *parent)
{
    auto *e = new QLineEdit(parent);
    e->setObjectName(name);
    e->setValidator(new QIntValidator(0, INT_MAX, e));
    e->setPlaceholderText("null");
    e->setToolTip(tooltip);
    return e;
}

Node optionalInt(const QString &text)
{
    return text.trimmed().isEmpty() ? Node::null() : Node::integer(text.trimmed().toLongLong());
}

} // namespace

VerlHooksPanel::VerlHooksPanel(ConfigSession *session, QWidget *parent) : ConfigPanel(session, parent)
{
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    m_relocate = new QCheckBox("Move reports into save_path (relocate_results)", this);
    m_relocate->setObjectName("relocateResults");
    m_relocate->setToolTip(tip(kGlobal + "relocate_results", "relocate_results"));
    m_cmd = new QLineEdit(this);
    m_cmd->setObjectName("finishHookCmd");
    m_cmd->setPlaceholderText("null (no hook)");
    m_cmd->setToolTip(tip(kGlobal + "finish_hook_cmd", "finish_hook_cmd"));
    m_allRanks = new QCheckBox("Run the hook on all ranks (finish_hook_all_ranks)", this);
    m_allRanks->setObjectName("finishHookAllRanks");
    m_allRanks->setToolTip(tip(kGlobal + "finish_hook_all_ranks", "finish_hook_all_ranks"));
    m_ranks = new IntListField(0, this);
    m_ranks->setObjectName("finishHookRanks");
    m_ranks->setPlaceholderText("the profiled ranks");
    m_ranks->setToolTip(tip(kGlobal + "finish_hook_ranks", "finish_hook_ranks"));
    auto *digest = new QPushButton("Digest with ProfStudio", this);
    digest->setObjectName("finishHookDigest");
    digest->setToolTip(QString("Sets the hook to '%1': after the last profiled step each profiled rank digests its "
                               "own reports on its node, so that only the digests (KB-MB) need collecting")
                           .arg(kVerlDigestHookCommand));
    auto *hookRow = new QHBoxLayout;
    hookRow->addWidget(m_cmd, 1);
    hookRow->addWidget(digest);
    form->addRow(m_relocate);
    form->addRow("Finish hook", hookRow);
    form->addRow(m_allRanks);
    form->addRow("Hook ranks", m_ranks);
    bind(kGlobal + "relocate_results", m_relocate);
    bind(kGlobal + "finish_hook_cmd", m_cmd);
    bind(kGlobal + "finish_hook_all_ranks", m_allRanks);
    bind(kGlobal + "finish_hook_ranks", m_ranks);
    connect(m_relocate, &QCheckBox::toggled, this,
            [this](bool on) { this->session()->setValue(kGlobal + "relocate_results", Node::boolean(on)); });
    connect(m_cmd, &QLineEdit::editingFinished, this, [this] {
        const QString t = m_cmd->text().trimmed();
        this->session()->setValue(kGlobal + "finish_hook_cmd",
                                  t.isEmpty() ? Node::null() : Node::string(t.toStdString()));
    });
    connect(digest, &QPushButton::clicked, this, [this] {
        this->session()->setValue(kGlobal + "finish_hook_cmd", Node::string(std::string(kVerlDigestHookCommand)));
    });
    connect(m_allRanks, &QCheckBox::toggled, this,
            [this](bool on) { this->session()->setValue(kGlobal + "finish_hook_all_ranks", Node::boolean(on)); });
    connect(m_ranks, &IntListField::committed, this, [this](const std::vector<long long> &v) {
        Node l = Node::list();
        for (long long x : v)
            l.append(Node::integer(x));
        this->session()->setValue(kGlobal + "finish_hook_ranks", l);
    });
}

void VerlHooksPanel::refresh(const SessionResult &r)
{
    quietly(m_relocate, [&](QCheckBox *c) { c->setChecked(boolAt(r, kGlobal + "relocate_results")); });
    showText(m_cmd, scalarText(composedNode(r, kGlobal + "finish_hook_cmd")));
    quietly(m_allRanks, [&](QCheckBox *c) { c->setChecked(boolAt(r, kGlobal + "finish_hook_all_ranks")); });
    m_ranks->setEnabled(!m_allRanks->isChecked());
    m_ranks->showValues(r.analysis ? r.analysis->model.verl.finishHookRanks : std::vector<long long>{});
}

VerlPrecisionDebuggerPanel::VerlPrecisionDebuggerPanel(ConfigSession *session, QWidget *parent)
    : ConfigPanel(session, parent)
{
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    m_configPath = new QLineEdit(this);
    m_configPath->setObjectName("pdConfigPath");
    m_configPath->setPlaceholderText("null");
    m_configPath->setToolTip(tip(kDebugger + "config_path", "precision_debugger.config_path"));
    m_stageBox = new QWidget(this);
    auto *grid = new QGridLayout(m_stageBox);
    grid->setContentsMargins(0, 0, 0, 0);
    // The stages of the first release that has the tool; refresh hides those a release lacks.
    m_stageOrder.clear();
    for (const std::string &s :
         core::profiling::verlVersionTraits(core::profiling::VerlVersion::V0_8).precisionDebuggerStages)
        m_stageOrder << QString::fromStdString(s);
    for (int i = 0; i < m_stageOrder.size(); ++i) {
        auto *cb = new QCheckBox(m_stageOrder[i], m_stageBox);
        cb->setObjectName("pdStage-" + m_stageOrder[i]);
        cb->setToolTip(tip(kDebugger + "stages", "precision_debugger.stages") + "\n\nNone checked: null.");
        m_stages.insert(m_stageOrder[i], cb);
        grid->addWidget(cb, i / 2, i % 2);
        connect(cb, &QCheckBox::toggled, this, [this] { commitStages(); });
    }
    m_strict = new QCheckBox("Strict (strict)", this);
    m_strict->setObjectName("pdStrict");
    m_strict->setToolTip(tip(kDebugger + "strict", "precision_debugger.strict"));
    form->addRow("msprobe config", m_configPath);
    form->addRow("Stages", m_stageBox);
    form->addRow(m_strict);
    bind(kDebugger + "config_path", m_configPath);
    bind(kDebugger + "stages", m_stageBox);
    bind(kDebugger + "strict", m_strict);
    connect(m_configPath, &QLineEdit::editingFinished, this, [this] {
        const QString t = m_configPath->text().trimmed();
        this->session()->setValue(kDebugger + "config_path",
                                  t.isEmpty() ? Node::null() : Node::string(t.toStdString()));
    });
    connect(m_strict, &QCheckBox::toggled, this,
            [this](bool on) { this->session()->setValue(kDebugger + "strict", Node::boolean(on)); });
}

void VerlPrecisionDebuggerPanel::commitStages()
{
    Node l = Node::list();
    for (const QString &s : m_stageOrder)
        if (m_stages.value(s)->isChecked())
            l.append(Node::string(s.toStdString()));
    session()->setValue(kDebugger + "stages", l.items().empty() ? Node::null() : l);
}

void VerlPrecisionDebuggerPanel::refresh(const SessionResult &r)
{
    showText(m_configPath, scalarText(composedNode(r, kDebugger + "config_path")));
    QStringList on;
    if (const Node *n = composedNode(r, kDebugger + "stages"); n && n->isList())
        for (const Node &s : n->items())
            on << scalarText(&s);
    for (auto it = m_stages.begin(); it != m_stages.end(); ++it)
        quietly(it.value(), [&](QCheckBox *c) { c->setChecked(on.contains(it.key())); });
    quietly(m_strict, [&](QCheckBox *c) { c->setChecked(boolAt(r, kDebugger + "strict")); });
}

VerlRolloutProfilerPanel::VerlRolloutProfilerPanel(ConfigSession *session, QWidget *parent)
    : ConfigPanel(session, parent)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(new QLabel("<b>Response tokens</b>"), 0, 0);
    grid->addWidget(new QLabel("<b>start</b>"), 0, 1);
    grid->addWidget(new QLabel("<b>end</b>"), 0, 2);
    int row = 1;
    for (const QString &tool : {QStringLiteral("torch"), QStringLiteral("npu")}) {
        grid->addWidget(new QLabel(tool, this), row, 0);
        int col = 1;
        for (const QString &which : {QStringLiteral("start"), QStringLiteral("end")}) {
            const std::string key = kRolloutTools + tool.toStdString() + ".profile_token_" + which.toStdString();
            QLineEdit *e = optionalIntField("token-" + tool + "-" + which, tip(key, "profile_token_" + which), this);
            m_tokens.insert(tool + "." + which, e);
            grid->addWidget(e, row, col++);
            bind(key, e);
            connect(e, &QLineEdit::editingFinished, this,
                    [this, key, e] { this->session()->setValue(key, optionalInt(e->text())); });
        }
        ++row;
    }
    m_engineNote = new QLabel(this);
    m_engineNote->setObjectName("rolloutEngineNote");
    m_engineNote->setWordWrap(true);
    m_engineNote->setStyleSheet("color: gray");
    grid->addWidget(m_engineNote, row, 0, 1, 3);
}

QLineEdit *VerlRolloutProfilerPanel::tokenField(const QString &tool, const QString &which) const
{
    return m_tokens.value(tool + "." + which);
}

void VerlRolloutProfilerPanel::refresh(const SessionResult &r)
{
    for (auto it = m_tokens.begin(); it != m_tokens.end(); ++it) {
        const QStringList parts = it.key().split('.');
        const std::string key = kRolloutTools + parts[0].toStdString() + ".profile_token_" + parts[1].toStdString();
        showText(it.value(), scalarText(composedNode(r, key)));
    }
    const std::string engine = r.analysis ? r.analysis->model.verl.rolloutEngine : std::string();
    // V7: vLLM and SGLang servers take only torch and npu; TRT-LLM also nsys.
    QString note = "The rollout follows the actor's enable/ranks and tool settings; its engines write traces to "
                   "<save_path>/agent_loop_rollout_replica_<r>/.";
    if (!engine.empty())
        note += QString(" Rollout engine %1 accepts %2.")
                    .arg(QString::fromStdString(engine), engine == "trtllm" ? "torch, npu and nsys" : "torch and npu");
    m_engineNote->setText(note);
}

VerlTorchSchedulePanel::VerlTorchSchedulePanel(ConfigSession *session, std::function<std::string()> rolePath,
                                               QWidget *parent)
    : ConfigPanel(session, parent), m_rolePath(std::move(rolePath))
{
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    setToolTip(verlFieldDoc("schedule"));
    for (const QString name : {"skip_first", "wait", "warmup", "active", "repeat"}) {
        auto *spin = new QSpinBox(this);
        spin->setObjectName("schedule-" + name);
        spin->setRange(0, 1000000);
        spin->setToolTip(verlTooltip("tool_config.torch.schedule." + name, "schedule." + name));
        m_fields.insert(name, spin);
        form->addRow(name, spin);
        for (const char *role : {"actor_rollout_ref.actor", "actor_rollout_ref.ref", "critic"})
            bind(std::string(role) + ".profiler.tool_config.torch.schedule." + name.toStdString(), spin);
        connect(spin, &QSpinBox::valueChanged, this, [this, name](int v) {
            this->session()->setValue(m_rolePath() + ".tool_config.torch.schedule." + name.toStdString(),
                                      Node::integer(v));
        });
    }
    m_state = new QLabel(this);
    m_state->setObjectName("scheduleState");
    m_state->setStyleSheet("color: gray");
    form->addRow(m_state);
}

void VerlTorchSchedulePanel::refresh(const SessionResult &r)
{
    const std::string base = m_rolePath() + ".tool_config.torch.schedule.";
    for (auto it = m_fields.begin(); it != m_fields.end(); ++it) {
        const Node *n = composedNode(r, base + it.key().toStdString());
        quietly(it.value(), [&](QSpinBox *s) { s->setValue(n && n->kind() == Node::Kind::Int ? int(n->asInt()) : 0); });
    }
    m_state->setText(m_fields.value("active")->value() > 0
                         ? "Scheduling on: the update loop's mini-batches are sub-sampled."
                         : "active = 0: no schedule, the whole update loop is recorded.");
}

} // namespace ps::views
