#include "views/config/verlpanels.h"

#include "core/profiling/verlschema.h"
#include "views/config/configsession.h"
#include "views/config/intlistfield.h"
#include "views/config/verldocs.h"
#include "views/config/verlreleasepanels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace ps::views {

using namespace core::configedit;

using core::config::Node;

namespace {

const char *kTool = "global_profiler.tool";
const QString kNull = QStringLiteral("null (off)");

bool boolAt(const SessionResult &r, const std::string &key, bool fallback)
{
    const Node *n = composedNode(r, key);
    return n && n->kind() == Node::Kind::Bool ? n->asBool() : fallback;
}

struct RoleInfo
{
    const char *role;
    const char *path;
    const char *meaning;
};
// ../shared/spec/profiling-config.md B3: composed locations of the role profiler blocks.
const RoleInfo kRoles[] = {
    {"actor", "actor_rollout_ref.actor.profiler", "Policy training (update_actor, compute_log_prob)"},
    {"rollout", "actor_rollout_ref.rollout.profiler",
     "Generation (generate_sequences); by default follows the actor through ${oc.select:...} interpolations"},
    {"ref", "actor_rollout_ref.ref.profiler", "Reference policy (compute_ref_log_prob)"},
    {"critic", "critic.profiler", "Critic (compute_values, update_critic); used with GAE"},
    {"reward_model", "reward_model.profiler", "Reward model (compute_rm_score); tool_config follows the actor"},
};

QStringList toQStringList(const std::vector<std::string> &v)
{
    QStringList out;
    for (const std::string &s : v)
        out << QString::fromStdString(s);
    return out;
}

// The accepted values come from the validator (core/profiling/verlschema.h), so the panel
// cannot offer what the check would reject; only the explanations live here.
// Functions, not namespace-scope copies: core's lists live in another translation unit, whose
// static initialisation may come after this one's.
const QStringList &npuContents()
{
    static const QStringList l = toQStringList(core::profiling::verlNpuContents());
    return l;
}
const QStringList &torchContents()
{
    static const QStringList l = toQStringList(core::profiling::verlTorchContents());
    return l;
}
const QMap<QString, QString> kContentTips = {
    {"npu-npu", "Device-side performance data"},
    {"npu-cpu", "Host-side performance data"},
    {"npu-memory", "Memory analysis"},
    {"npu-shapes", "Record tensor shapes"},
    {"npu-module", "Framework-level Python call stacks (low overhead)"},
    {"npu-stack", "Operator call stacks"},
    {"torch-cuda", "ProfilerActivity.CUDA: GPU kernels and copies"},
    {"torch-cpu", "ProfilerActivity.CPU: operators on the host"},
    {"torch-memory", "profile_memory=True: tensor allocations"},
    {"torch-shapes", "record_shapes=True: operator input shapes"},
    {"torch-stack", "with_stack=True: Python source locations"},
    {"torch-profile-by-stage", "A separate trace per annotated stage"},
    {"torch-merge-profiles", "Merge the per-stage traces"},
};

} // namespace

VerlGlobalPanel::VerlGlobalPanel(ConfigSession *session, QWidget *parent) : ConfigPanel(session, parent)
{
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    m_tool = new QComboBox(this);
    m_tool->setObjectName("tool");
    m_tool->addItems(QStringList{kNull} + toQStringList(core::profiling::verlTools()));
    m_tool->setToolTip("global_profiler.tool: nsys (Nsight Systems through Ray's runtime_env), npu (torch_npu "
                       "profiler), torch (torch.profiler), torch_memory (CUDA memory snapshots), precision_debugger "
                       "(msprobe, verl 0.8+). Roles inherit it through ${oc.select:global_profiler.tool,null}. The "
                       "list holds the tools of the verl release shown in the header.");
    m_continuous = new QCheckBox("Continuous steps (profile_continuous_steps)", this);
    m_continuous->setObjectName("continuous");
    m_continuous->setToolTip("global_profiler.profile_continuous_steps: consecutive profiled steps share one "
                             "start/stop window (one capture range) instead of one per step. Requires nsys "
                             "discrete=False.");
    m_discrete = new QCheckBox("nsys discrete mode", this);
    m_discrete->setObjectName("nsysDiscrete");
    m_discrete->setToolTip("global_profiler.global_tool_config.nsys.discrete: one capture range per annotated call "
                           "(update_actor, generate_sequences, ...) instead of per step; roles interpolate it.");
    form->addRow("Tool", m_tool);
    form->addRow(m_continuous);
    form->addRow(m_discrete);
    bind(kTool, m_tool);
    bind("global_profiler.profile_continuous_steps", m_continuous);
    bind("global_profiler.global_tool_config.nsys.discrete", m_discrete);
    connect(m_tool, &QComboBox::currentTextChanged, this, [this](const QString &t) {
        this->session()->setValue(kTool, t == kNull ? Node::null() : Node::string(t.toStdString()));
    });
    connect(m_continuous, &QCheckBox::toggled, this, [this](bool on) {
        this->session()->setValue("global_profiler.profile_continuous_steps", Node::boolean(on));
    });
    connect(m_discrete, &QCheckBox::toggled, this, [this](bool on) {
        this->session()->setValue("global_profiler.global_tool_config.nsys.discrete", Node::boolean(on));
    });
}

void VerlGlobalPanel::refresh(const SessionResult &r)
{
    const QString t = scalarText(composedNode(r, kTool));
    // The tools of the release whose rules apply (precision_debugger only from 0.8).
    if (const core::profiling::VerlVersionTraits *traits = verlTraits(r)) {
        const QStringList tools = QStringList{kNull} + toQStringList(traits->tools);
        QStringList shown;
        for (int i = 0; i < m_tool->count(); ++i)
            shown << m_tool->itemText(i);
        if (shown != tools)
            quietly(m_tool, [&](QComboBox *c) {
                c->clear();
                c->addItems(tools);
            });
    }
    quietly(m_tool, [&](QComboBox *c) {
        if (!t.isEmpty() && c->findText(t) < 0)
            c->addItem(t);
        c->setCurrentText(t.isEmpty() ? kNull : t);
    });
    quietly(m_continuous,
            [&](QCheckBox *c) { c->setChecked(boolAt(r, "global_profiler.profile_continuous_steps", false)); });
    quietly(m_discrete, [&](QCheckBox *c) {
        c->setChecked(boolAt(r, "global_profiler.global_tool_config.nsys.discrete", false));
        c->setEnabled(t == "nsys");
    });
}

VerlRolesPanel::VerlRolesPanel(ConfigSession *session, QWidget *parent) : ConfigPanel(session, parent)
{
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(new QLabel("<b>Role</b>"), 0, 0);
    grid->addWidget(new QLabel("<b>Enable</b>"), 0, 1);
    grid->addWidget(new QLabel("<b>All ranks</b>"), 0, 2);
    grid->addWidget(new QLabel("<b>Ranks</b>"), 0, 3);
    int row = 1;
    for (const RoleInfo &info : kRoles) {
        Row r;
        r.path = info.path;
        auto *name = new QLabel(info.role, this);
        name->setObjectName(QString("role-%1").arg(info.role));
        r.name = name;
        name->setToolTip(QString("%1\n%2").arg(info.path, info.meaning));
        r.enable = new QCheckBox(this);
        r.enable->setObjectName(QString("enable-%1").arg(info.role));
        r.enable->setToolTip(QString("%1.enable: this role starts/stops its profiler in profiled steps. Without "
                                     "all_ranks or ranks only rank 0 is profiled.")
                                 .arg(info.path));
        r.allRanks = new QCheckBox(this);
        r.allRanks->setObjectName(QString("allRanks-%1").arg(info.role));
        r.allRanks->setToolTip(QString("%1.all_ranks: profile every rank of the role").arg(info.path));
        r.ranks = new IntListField(0, this);
        r.ranks->setObjectName(QString("ranks-%1").arg(info.role));
        r.ranks->setPlaceholderText("rank 0");
        r.ranks->setToolTip(
            QString("%1.ranks: ranks to profile, e.g. 0,1,4-7 (ignored when all_ranks is set)").arg(info.path));
        r.note = new QLabel(this);
        r.note->setStyleSheet("color: gray");
        grid->addWidget(name, row, 0);
        grid->addWidget(r.enable, row, 1);
        grid->addWidget(r.allRanks, row, 2);
        grid->addWidget(r.ranks, row, 3);
        grid->addWidget(r.note, row + 1, 0, 1, 4);
        row += 2;
        bind(r.path + ".enable", r.enable);
        bind(r.path + ".all_ranks", r.allRanks);
        bind(r.path + ".ranks", r.ranks);
        bind(r.path, name);
        const std::string path = r.path;
        connect(r.enable, &QCheckBox::toggled, this,
                [this, path](bool on) { this->session()->setValue(path + ".enable", Node::boolean(on)); });
        connect(r.allRanks, &QCheckBox::toggled, this,
                [this, path](bool on) { this->session()->setValue(path + ".all_ranks", Node::boolean(on)); });
        connect(r.ranks, &IntListField::committed, this, [this, path](const std::vector<long long> &v) {
            Node l = Node::list();
            for (long long x : v)
                l.append(Node::integer(x));
            this->session()->setValue(path + ".ranks", l);
        });
        m_rows.insert(info.role, r);
    }
}

void VerlRolesPanel::refresh(const SessionResult &r)
{
    const core::profiling::VerlVersionTraits *traits = verlTraits(r);
    for (auto it = m_rows.begin(); it != m_rows.end(); ++it) {
        Row &row = it.value();
        // reward_model.profiler is gone from 0.7.1 (#5255): no row for it there.
        const bool exists = it.key() != "reward_model" || !traits || traits->rewardModelProfiler;
        for (QWidget *w : std::initializer_list<QWidget *>{row.name, row.enable, row.allRanks, row.ranks})
            w->setVisible(exists);
        if (!exists) {
            row.note->setVisible(false);
            continue;
        }
        const Node *block = composedNode(r, row.path);
        const bool present = block && block->isDict();
        row.enable->setEnabled(present);
        row.allRanks->setEnabled(present);
        row.ranks->setEnabled(present);
        // The resolved values come from the engine's model (rollout follows the actor by interpolation).
        const core::profiling::VerlRoleProfiler *model =
            r.analysis ? r.analysis->model.verl.role(it.key().toStdString()) : nullptr;
        const Node *en = composedNode(r, row.path + ".enable");
        quietly(row.enable, [&](QCheckBox *c) { c->setChecked(model ? model->enable : false); });
        quietly(row.allRanks, [&](QCheckBox *c) { c->setChecked(model ? model->allRanks : false); });
        row.ranks->showValues(model ? model->ranks : std::vector<long long>{});
        QString note;
        if (!present)
            note = "not in this config";
        else if (en && en->isInterpolation())
            note = "follows " + QString::fromStdString(en->asString()) + " unless set here";
        row.note->setText(note);
        row.note->setVisible(!note.isEmpty());
    }
}

VerlToolPanel::VerlToolPanel(ConfigSession *session, QWidget *parent) : ConfigPanel(session, parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *roleRow = new QFormLayout;
    m_role = new QComboBox(this);
    m_role->setObjectName("toolRole");
    for (const RoleInfo &info : kRoles)
        if (std::string(info.role) != "rollout" && std::string(info.role) != "reward_model")
            m_role->addItem(info.role, QString(info.path));
    m_role->setToolTip("The role whose tool_config is edited (rollout and reward_model follow the actor's).");
    roleRow->addRow("Role", m_role);
    layout->addLayout(roleRow);

    const auto contentBoxes = [](QGroupBox *box, const QStringList &names, QMap<QString, QCheckBox *> &out,
                                 const QString &prefix, QGridLayout *grid) {
        int i = 0;
        for (const QString &c : names) {
            auto *cb = new QCheckBox(c, box);
            cb->setObjectName(prefix + c);
            cb->setToolTip(kContentTips.value(prefix + c));
            out.insert(c, cb);
            grid->addWidget(cb, i / 3, i % 3);
            ++i;
        }
    };

    m_npuBox = new QGroupBox("Ascend NPU (tool_config.npu)", this);
    auto *npuForm = new QFormLayout(m_npuBox);
    m_npuLevel = new QComboBox(m_npuBox);
    m_npuLevel->setObjectName("npuLevel");
    m_npuLevel->addItems(toQStringList(core::profiling::verlNpuLevels()));
    m_npuLevel->setToolTip("level0: application data, NPU data and operator details (recommended); level1 adds "
                           "CANN AscendCL data and AI Core metrics; level2 adds CANN runtime data and AI CPU metrics; "
                           "level_none disables level-based collection.");
    npuForm->addRow("Level", m_npuLevel);
    auto *npuGrid = new QGridLayout;
    contentBoxes(m_npuBox, npuContents(), m_npuContents, "npu-", npuGrid);
    npuForm->addRow("Contents", npuGrid);
    m_npuAnalysis = new QCheckBox("Parse after collection (analysis)", m_npuBox);
    m_npuAnalysis->setObjectName("npuAnalysis");
    m_npuAnalysis->setToolTip("Run automatic parsing when collection ends (slow for large data).");
    m_npuDiscrete = new QCheckBox("Discrete mode", m_npuBox);
    m_npuDiscrete->setObjectName("npuDiscrete");
    m_npuDiscrete->setToolTip("False: end-to-end, every stage into one folder (<save_path>/e2e). True: one "
                              "collection per annotated stage (<save_path>/<role>), much less data; required for "
                              "agent-loop rollouts.");
    npuForm->addRow(m_npuAnalysis);
    npuForm->addRow(m_npuDiscrete);
    layout->addWidget(m_npuBox);

    m_torchBox = new QGroupBox("PyTorch profiler (tool_config.torch)", this);
    auto *torchForm = new QFormLayout(m_torchBox);
    auto *torchGrid = new QGridLayout;
    contentBoxes(m_torchBox, torchContents(), m_torchContents, "torch-", torchGrid);
    torchForm->addRow("Contents", torchGrid);
    m_torchDiscrete = new QCheckBox("Discrete mode", m_torchBox);
    m_torchDiscrete->setObjectName("torchDiscrete");
    m_torchDiscrete->setToolTip(
        "False: one trace per rank for the profiled steps (<save_path>/e2e/prof_rank-N.json.gz, "
        "rewritten each profiled step). True: per annotated call under <save_path>/<role>.");
    torchForm->addRow(m_torchDiscrete);
    layout->addWidget(m_torchBox);
    layout->addWidget(buildMemoryBox());
    addReleaseBoxes(layout);
    connectEdits();
}

// Every control writes its key as an undoable edit of the session.
void VerlToolPanel::connectEdits()
{
    connect(m_role, &QComboBox::currentIndexChanged, this, [this] {
        if (const SessionResultPtr r = this->session()->result())
            refresh(*r);
    });
    connect(m_npuLevel, &QComboBox::currentTextChanged, this, [this](const QString &l) {
        this->session()->setValue(rolePath() + ".tool_config.npu.level", Node::string(l.toStdString()));
    });
    for (QCheckBox *c : m_npuContents)
        connect(c, &QCheckBox::toggled, this, [this] { commitContents("npu", m_npuContents, npuContents()); });
    for (QCheckBox *c : m_torchContents)
        connect(c, &QCheckBox::toggled, this, [this] { commitContents("torch", m_torchContents, torchContents()); });
    connect(m_npuAnalysis, &QCheckBox::toggled, this, [this](bool on) {
        this->session()->setValue(rolePath() + ".tool_config.npu.analysis", Node::boolean(on));
    });
    connect(m_npuDiscrete, &QCheckBox::toggled, this, [this](bool on) {
        this->session()->setValue(rolePath() + ".tool_config.npu.discrete", Node::boolean(on));
    });
    connect(m_torchDiscrete, &QCheckBox::toggled, this, [this](bool on) {
        this->session()->setValue(rolePath() + ".tool_config.torch.discrete", Node::boolean(on));
    });
    connect(m_maxEntries, &QSpinBox::valueChanged, this, [this](int v) {
        this->session()->setValue("global_profiler.global_tool_config.torch_memory.trace_alloc_max_entries",
                                  Node::integer(v));
    });
    connect(m_stackDepth, &QSpinBox::valueChanged, this, [this](int v) {
        this->session()->setValue("global_profiler.global_tool_config.torch_memory.stack_depth", Node::integer(v));
    });
}

// torch_memory is global, not per role.
QGroupBox *VerlToolPanel::buildMemoryBox()
{
    m_memBox = new QGroupBox("torch_memory (global_tool_config.torch_memory)", this);
    auto *memForm = new QFormLayout(m_memBox);
    m_maxEntries = new QSpinBox(m_memBox);
    m_maxEntries->setObjectName("maxEntries");
    m_maxEntries->setRange(1, 100000000);
    m_maxEntries->setToolTip("trace_alloc_max_entries: allocation events kept by "
                             "torch.cuda.memory._record_memory_history (must be a positive int)");
    m_stackDepth = new QSpinBox(m_memBox);
    m_stackDepth->setObjectName("stackDepth");
    m_stackDepth->setRange(1, 1000);
    m_stackDepth->setToolTip("stack_depth: frames recorded per allocation (must be a positive int)");
    memForm->addRow("trace_alloc_max_entries", m_maxEntries);
    memForm->addRow("stack_depth", m_stackDepth);
    return m_memBox;
}

// The torch schedule (0.9+) inside the torch box, and precision_debugger (0.8+).
void VerlToolPanel::addReleaseBoxes(QLayout *layout)
{
    m_scheduleBox = new QGroupBox("torch.profiler schedule (tool_config.torch.schedule, verl 0.9+)", m_torchBox);
    m_scheduleBox->setObjectName("torchScheduleBox");
    m_scheduleBox->setToolTip(verlFieldDoc("schedule"));
    auto *l = new QVBoxLayout(m_scheduleBox);
    m_schedule = new VerlTorchSchedulePanel(
        session(), [this] { return rolePath(); }, m_scheduleBox);
    l->addWidget(m_schedule);
    m_torchBox->layout()->addWidget(m_scheduleBox);

    m_debuggerBox =
        new QGroupBox("msprobe precision debugger (global_tool_config.precision_debugger, verl 0.8+)", this);
    m_debuggerBox->setObjectName("precisionDebuggerBox");
    auto *dl = new QVBoxLayout(m_debuggerBox);
    m_debugger = new VerlPrecisionDebuggerPanel(session(), m_debuggerBox);
    dl->addWidget(m_debugger);
    layout->addWidget(m_debuggerBox);
}

void VerlToolPanel::showRelease(const SessionResult &r, const QString &tool)
{
    const core::profiling::VerlVersionTraits *traits = verlTraits(r);
    if (!traits)
        return;
    // torch contents the release accepts (profile-by-stage / merge-profiles only before 0.7.1).
    for (auto it = m_torchContents.begin(); it != m_torchContents.end(); ++it) {
        const bool known = std::find(traits->torchContents.begin(), traits->torchContents.end(),
                                     it.key().toStdString()) != traits->torchContents.end();
        it.value()->setVisible(known);
    }
    m_scheduleBox->setVisible(traits->torchSchedule);
    m_debuggerBox->setVisible(!traits->precisionDebuggerStages.empty() &&
                              (tool.isEmpty() || tool == "precision_debugger"));
}

std::string VerlToolPanel::rolePath() const
{
    return m_role->currentData().toString().toStdString();
}

void VerlToolPanel::commitContents(const std::string &tool, const QMap<QString, QCheckBox *> &boxes,
                                   const QStringList &order)
{
    Node l = Node::list();
    for (const QString &c : order)
        if (boxes.value(c)->isChecked())
            l.append(Node::string(c.toStdString()));
    session()->setValue(rolePath() + ".tool_config." + tool + ".contents", l);
}

void VerlToolPanel::refresh(const SessionResult &r)
{
    const std::string base = rolePath() + ".tool_config.";
    const QString tool = scalarText(composedNode(r, kTool));
    m_npuBox->setVisible(tool.isEmpty() || tool == "npu");
    m_torchBox->setVisible(tool.isEmpty() || tool == "torch");
    m_memBox->setVisible(tool.isEmpty() || tool == "torch_memory");
    showRelease(r, tool);
    m_schedule->refresh(r);

    const auto showContents = [&](const std::string &key, QMap<QString, QCheckBox *> &boxes) {
        QStringList on;
        if (const Node *n = composedNode(r, key); n && n->isList())
            for (const Node &c : n->items())
                on << scalarText(&c);
        for (auto it = boxes.begin(); it != boxes.end(); ++it)
            quietly(it.value(), [&](QCheckBox *c) { c->setChecked(on.contains(it.key())); });
    };
    showContents(base + "npu.contents", m_npuContents);
    showContents(base + "torch.contents", m_torchContents);
    const QString level = scalarText(composedNode(r, base + "npu.level"));
    quietly(m_npuLevel, [&](QComboBox *c) { c->setCurrentText(level.isEmpty() ? "level0" : level); });
    quietly(m_npuAnalysis, [&](QCheckBox *c) { c->setChecked(boolAt(r, base + "npu.analysis", true)); });
    quietly(m_npuDiscrete, [&](QCheckBox *c) { c->setChecked(boolAt(r, base + "npu.discrete", false)); });
    quietly(m_torchDiscrete, [&](QCheckBox *c) { c->setChecked(boolAt(r, base + "torch.discrete", false)); });
    const auto intAt = [&](const std::string &key, int fallback) {
        const Node *n = composedNode(r, key);
        return n && n->kind() == Node::Kind::Int ? int(n->asInt()) : fallback;
    };
    quietly(m_maxEntries, [&](QSpinBox *s) {
        s->setValue(intAt("global_profiler.global_tool_config.torch_memory.trace_alloc_max_entries", 100000));
    });
    quietly(m_stackDepth, [&](QSpinBox *s) {
        s->setValue(intAt("global_profiler.global_tool_config.torch_memory.stack_depth", 32));
    });
}

} // namespace ps::views
