#include "views/config/nsightpanel.h"

#include "views/config/configsession.h"
#include "views/config/keyvaluetable.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace ps::views {

using namespace core::configedit;

using core::config::Node;

namespace {

const QString kUnset = QStringLiteral("(not set)");

struct Api
{
    const char *name;
    const char *meaning;
};
const Api kApis[] = {
    {"cuda", "CUDA runtime/driver API calls, kernels and memory copies"},
    {"nvtx", "NVTX ranges: RLinf's @Worker.timer labels and verl's method names live here"},
    {"osrt", "OS runtime calls (pthread, file and socket I/O, sleeps); see osrt-threshold"},
    {"cudnn", "cuDNN API calls"},
    {"cublas", "cuBLAS API calls"},
    {"ucx", "UCX communication library calls"},
    {"mpi", "MPI calls"},
    {"cusparse", "cuSPARSE API calls"},
    {"openmp", "OpenMP runtime events"},
};

const QStringList kCommonFlags = {"python-backtrace", "stats", "cuda-memory-usage", "trace-fork-before-exec"};

} // namespace

NsightPanel::NsightPanel(ConfigSession *session, NsightPanelSpec spec, QWidget *parent)
    : ConfigPanel(session, parent), m_spec(std::move(spec))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);

    auto *traceBox = new QGroupBox("Trace APIs (-t / --trace)", this);
    auto *grid = new QGridLayout(traceBox);
    int i = 0;
    for (const Api &a : kApis) {
        auto *c = new QCheckBox(a.name, traceBox);
        c->setObjectName(QString("trace-") + a.name);
        c->setToolTip(a.meaning);
        grid->addWidget(c, i / 3, i % 3);
        m_trace.insert(a.name, c);
        connect(c, &QCheckBox::toggled, this, [this] { commitTrace(); });
        ++i;
    }
    layout->addWidget(traceBox);
    bind(m_spec.optionsKey + "." + m_spec.defaultTraceKey, traceBox);

    auto *form = new QFormLayout;
    addCombo("sample", {kUnset, "process-tree", "system-wide", "none"}, false,
             "CPU IP/backtrace sampling scope (nsys --sample). process-tree samples the profiled process and its "
             "children; none turns sampling off.");
    addCombo("cpuctxsw", {kUnset, "process-tree", "system-wide", "none"}, false,
             "Trace OS thread scheduling (context switches) (nsys --cpuctxsw).");
    addCombo("backtrace", {kUnset, "lbr", "fp", "dwarf", "none"}, false,
             "How CPU sample backtraces are collected (nsys --backtrace): lbr (Intel last branch record), fp (frame "
             "pointers), dwarf (debug info).");
    addCombo("cudabacktrace", {kUnset, "all", "none", "kernel", "memory", "sync", "other"}, true,
             "Collect a CPU backtrace for CUDA API calls of the given kinds (nsys --cudabacktrace), optionally "
             "with a threshold such as kernel:500.");
    addCombo("osrt-threshold", {kUnset, "1000", "10000", "100000"}, true,
             "Minimum duration in ns of an OS runtime call for its backtrace to be recorded (nsys "
             "--osrt-threshold).");
    addCombo("capture-range", {kUnset, "cudaProfilerApi", "nvtx", "hotkey", "none"}, false,
             "When collection starts (nsys --capture-range). cudaProfilerApi waits for cudaProfilerStart (what "
             "RLinf's and verl's start_profile call); RLinf adds it automatically when steps is set.");
    addCombo("capture-range-end", {kUnset, "stop", "stop-shutdown", "repeat", "none", "repeat-shutdown:6", "repeat:2"},
             true,
             "What happens when a capture range ends (nsys --capture-range-end): stop ends collection after the "
             "first range; repeat[:N] starts a new report for every range; repeat-shutdown:N ends the process "
             "after N ranges. RLinf injects stop when steps is set; verl fills repeat-shutdown:6*len(steps).");
    if (m_spec.rlinfAlias)
        addCombo("stop-on-range-end", {kUnset, "true", "false"}, false,
                 "RLinf alias of capture-range-end: true|1|yes|on becomes capture-range-end=stop, false|0|no|off "
                 "becomes none (moved to the end of the options). Must not be combined with capture-range-end.");
    for (auto it = m_combos.begin(); it != m_combos.end(); ++it)
        form->addRow(it.key(), it.value());
    layout->addLayout(form);

    if (!m_spec.flagsKey.empty())
        layout->addWidget(buildFlagsBox());

    std::set<std::string> handled = {"t", "trace"};
    for (auto it = m_combos.begin(); it != m_combos.end(); ++it)
        handled.insert(it.key().toStdString());
    layout->addWidget(new QLabel("Other options", this));
    m_other = new KeyValueTable(session, m_spec.optionsKey, handled, m_spec.stringValues, this);
    layout->addWidget(m_other);
}

// The bare nsys switches (cluster.profiling.flags): common ones as check boxes, others as text.
QWidget *NsightPanel::buildFlagsBox()
{
    auto *flagsBox = new QGroupBox("Flags (cluster.profiling.flags)", this);
    flagsBox->setToolTip("Bare nsys switches, rendered first as --name (single letters as -x), in order.");
    auto *fl = new QVBoxLayout(flagsBox);
    auto *row = new QGridLayout;
    int k = 0;
    for (const QString &f : kCommonFlags) {
        auto *c = new QCheckBox(f, flagsBox);
        c->setObjectName("flag-" + f);
        c->setToolTip(QString("nsys profile --%1").arg(f));
        row->addWidget(c, k / 2, k % 2);
        m_flags.insert(f, c);
        connect(c, &QCheckBox::toggled, this, [this] { commitFlags(); });
        ++k;
    }
    fl->addLayout(row);
    m_otherFlags = new QLineEdit(flagsBox);
    m_otherFlags->setObjectName("otherFlags");
    m_otherFlags->setPlaceholderText("Other flags, comma-separated");
    connect(m_otherFlags, &QLineEdit::editingFinished, this, [this] { commitFlags(); });
    fl->addWidget(m_otherFlags);
    bind(m_spec.flagsKey, flagsBox);
    return flagsBox;
}

QComboBox *NsightPanel::addCombo(const QString &name, const QStringList &values, bool editable, const QString &tip)
{
    auto *c = new QComboBox(this);
    c->setObjectName("opt-" + name);
    c->addItems(values);
    c->setEditable(editable);
    c->setToolTip(tip);
    m_combos.insert(name, c);
    bind(m_spec.optionsKey + "." + name.toStdString(), c);
    connect(c, &QComboBox::currentTextChanged, this, [this, name] { comboChanged(name); });
    return c;
}

std::string NsightPanel::traceKey(const SessionResult *r) const
{
    for (const char *k : {"t", "trace"})
        if (r && composedNode(*r, m_spec.optionsKey + "." + k))
            return k;
    return m_spec.defaultTraceKey;
}

void NsightPanel::comboChanged(const QString &name)
{
    const QString text = m_combos.value(name)->currentText().trimmed();
    const std::string key = m_spec.optionsKey + "." + name.toStdString();
    if (text == kUnset || text.isEmpty())
        session()->removeKey(key);
    else
        session()->setValue(key, m_spec.stringValues ? Node::string(text.toStdString()) : valueFromText(text));
}

void NsightPanel::commitTrace()
{
    QStringList items;
    for (const QString &api : m_traceOrder)
        if (m_trace.contains(api) ? m_trace.value(api)->isChecked() : true)
            items << api; // keep the config's order, and APIs this panel has no box for
    for (const Api &a : kApis)
        if (m_trace.value(a.name)->isChecked() && !items.contains(a.name))
            items << a.name;
    const auto r = session()->result();
    const std::string key = m_spec.optionsKey + "." + traceKey(r.get());
    if (items.isEmpty())
        session()->removeKey(key);
    else
        session()->setValue(key, Node::string(items.join(',').toStdString()));
    m_traceOrder = items;
}

void NsightPanel::commitFlags()
{
    Node flags = Node::list();
    for (const QString &f : kCommonFlags)
        if (m_flags.value(f)->isChecked())
            flags.append(Node::string(f.toStdString()));
    for (const QString &f : m_otherFlags->text().split(',', Qt::SkipEmptyParts))
        if (!kCommonFlags.contains(f.trimmed()))
            flags.append(Node::string(f.trimmed().toStdString()));
    session()->setValue(m_spec.flagsKey, flags);
}

void NsightPanel::refresh(const SessionResult &r)
{
    const Node *trace = composedNode(r, m_spec.optionsKey + "." + traceKey(&r));
    m_traceOrder = scalarText(trace).split(',', Qt::SkipEmptyParts);
    for (QString &s : m_traceOrder)
        s = s.trimmed();
    for (auto it = m_trace.begin(); it != m_trace.end(); ++it)
        quietly(it.value(), [&](QCheckBox *c) { c->setChecked(m_traceOrder.contains(it.key())); });

    for (auto it = m_combos.begin(); it != m_combos.end(); ++it) {
        const Node *n = composedNode(r, m_spec.optionsKey + "." + it.key().toStdString());
        QComboBox *c = it.value();
        if (c->hasFocus() && c->isEditable())
            continue;
        const QString text = n ? scalarText(n) : kUnset;
        quietly(c, [&](QComboBox *box) {
            int idx = box->findText(text);
            if (idx < 0 && !text.isEmpty()) {
                box->addItem(text);
                idx = box->count() - 1;
            }
            box->setCurrentIndex(std::max(idx, 0));
        });
    }

    if (!m_spec.flagsKey.empty()) {
        const Node *flags = composedNode(r, m_spec.flagsKey);
        QStringList names;
        if (flags && flags->isList())
            for (const Node &f : flags->items())
                names << scalarText(&f);
        else if (flags && flags->isStringLike())
            names << scalarText(flags);
        QStringList other;
        for (const QString &n : names)
            if (!kCommonFlags.contains(n))
                other << n;
        for (auto it = m_flags.begin(); it != m_flags.end(); ++it)
            quietly(it.value(), [&](QCheckBox *c) { c->setChecked(names.contains(it.key())); });
        if (!m_otherFlags->hasFocus())
            m_otherFlags->setText(other.join(','));
    }
    m_other->refresh(r);
}

} // namespace ps::views
