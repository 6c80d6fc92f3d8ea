#include "views/config/rlinfpanels.h"

#include "views/config/configsession.h"
#include "views/config/keyvaluetable.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ps::views {

using namespace core::configedit;

using core::config::Node;

namespace {
// RLinf's own way to turn profiling on (its docs, A1): the `profile/default` preset mounted at
// cluster.profiling. True when a config root of the session has that preset file.
bool hasProfilePreset(const std::vector<std::string> &configDirs)
{
    for (const std::string &dir : configDirs)
        if (QDir(QString::fromStdString(dir)).exists(QStringLiteral("profile/default.yaml")))
            return true;
    return false;
}
} // namespace

RLinfGeneralPanel::RLinfGeneralPanel(ConfigSession *session, QWidget *parent) : ConfigPanel(session, parent)
{
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    m_form = form;
    buildMissingRow();
    form->addRow(m_missing);
    m_enabled = new QCheckBox("Profiling enabled", this);
    m_enabled->setObjectName("enabled");
    m_enabled->setToolTip("cluster.profiling.enabled: master switch (upstream default True). Upstream uses "
                          "truthiness, so the string \"false\" would enable profiling; this box writes a real bool.");
    m_backend = new QComboBox(this);
    m_backend->setObjectName("backend");
    m_backend->addItems({"nsight", "rocprof_sys"});
    m_backend->setPlaceholderText("(not set)");
    m_backend->setToolTip("cluster.profiling.backend: nsight (NVIDIA Nsight Systems, `nsys profile`) or rocprof_sys "
                          "(AMD ROCm Systems Profiler, `rocprof-sys-python`). RLinf has no NPU profiling backend.");
    form->addRow(m_enabled);
    form->addRow("Backend", m_backend);
    bind("cluster.profiling.enabled", m_enabled);
    bind("cluster.profiling.backend", m_backend);
    connect(m_enabled, &QCheckBox::toggled, this,
            [this](bool on) { this->session()->setValue("cluster.profiling.enabled", Node::boolean(on)); });
    connect(m_backend, &QComboBox::currentTextChanged, this, [this](const QString &b) {
        this->session()->setValue("cluster.profiling.backend", Node::string(b.toStdString()));
    });
}

// Shown instead of the switches when the composed config has no cluster.profiling: RLinf then
// profiles nothing, and the form must not show an enabled backend the file does not have.
void RLinfGeneralPanel::buildMissingRow()
{
    m_missing = new QWidget(this);
    auto *row = new QHBoxLayout(m_missing);
    row->setContentsMargins(0, 0, 0, 0);
    auto *text = new QLabel("<b>Not in this config</b>: without cluster.profiling RLinf profiles nothing.", m_missing);
    text->setObjectName("profilingMissing");
    text->setWordWrap(true);
    m_add = new QPushButton("Add profiling", m_missing);
    m_add->setObjectName("addProfiling");
    row->addWidget(text, 1);
    row->addWidget(m_add);
    connect(m_add, &QPushButton::clicked, this, &RLinfGeneralPanel::addProfiling);
}

void RLinfGeneralPanel::addProfiling()
{
    if (hasProfilePreset(session()->base().configDirs)) {
        OverrideList edits = session()->state().edits;
        edits.push_back("+profile@cluster.profiling=default");
        session()->setEdits(edits, "Add profiling (profile/default@cluster.profiling)");
    } else {
        session()->setValue("cluster.profiling.backend", Node::string("nsight"));
    }
}

void RLinfGeneralPanel::refresh(const SessionResult &r)
{
    m_present = composedNode(r, "cluster.profiling") != nullptr;
    m_missing->setVisible(!m_present);
    if (!m_present) // the folder is looked at only while the button shows
        m_add->setToolTip(hasProfilePreset(session()->base().configDirs)
                              ? "Adds the override +profile@cluster.profiling=default (RLinf's preset)"
                              : "Adds +cluster.profiling.backend=nsight (this tree has no profile/default.yaml)");
    m_form->setRowVisible(m_enabled, m_present);
    m_form->setRowVisible(m_backend, m_present);
    const Node *e = composedNode(r, "cluster.profiling.enabled");
    quietly(m_enabled,
            [&](QCheckBox *c) { c->setChecked(!e || (e->kind() == Node::Kind::Bool ? e->asBool() : true)); });
    // An absent backend reads as absent ("not set"), as RLinf's validate_cfg rejects it.
    const QString b = scalarText(composedNode(r, "cluster.profiling.backend"));
    quietly(m_backend, [&](QComboBox *c) {
        if (c->findText(b) < 0 && !b.isEmpty())
            c->addItem(b);
        c->setCurrentIndex(c->findText(b));
    });
}

OutputDirPanel::OutputDirPanel(ConfigSession *session, std::string key, QWidget *parent)
    : ConfigPanel(session, parent), m_key(std::move(key))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_field = new QLineEdit(this);
    m_field->setObjectName("outputDir");
    m_field->setClearButtonEnabled(true);
    m_derived = new QLabel(this);
    m_derived->setWordWrap(true);
    m_derived->setStyleSheet("color: gray");
    m_derived->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_field);
    layout->addWidget(m_derived);
    bind(m_key, m_field);
    connect(m_field, &QLineEdit::editingFinished, this, [this] {
        const QString t = m_field->text().trimmed();
        const auto r = this->session()->result();
        if (t.isEmpty()) {
            if (r && r->composed && composedNode(*r, m_key))
                this->session()->removeKey(m_key);
        } else {
            this->session()->setValue(m_key, Node::string(t.toStdString()));
        }
    });
}

void OutputDirPanel::refresh(const SessionResult &r)
{
    const Node *n = composedNode(r, m_key);
    if (!m_field->hasFocus())
        m_field->setText(scalarText(n));
    QString derived;
    if (r.analysis) {
        const auto &m = r.analysis->model;
        if (m.framework == core::profiling::Framework::RLinf) {
            m_field->setToolTip("cluster.profiling.output_dir: where every wrapped worker writes "
                                "rlinf_profile_<worker>_%p.nsys-rep. Empty: RLinf's validate_cfg derives "
                                "<runner.logger.log_path>/<experiment_name>/profiling (made absolute on the driver).");
            if (m.rlinf.outputDirDerived)
                derived = "Derived default: " + QString::fromStdString(m.rlinf.outputDir);
            else if (m.rlinf.outputDir.empty())
                derived = "No output directory: reports go to the driver's temp dir";
        } else {
            m_field->setToolTip("global_profiler.save_path: where npu, torch and torch_memory write (roles inherit "
                                "it). nsys ignores it: Ray writes reports to <session>/logs/nsight on each node.");
            derived = "Default outputs/profile (relative to each worker's working directory); nsys reports go to "
                      "the Ray session's logs/nsight folder.";
        }
        m_field->setPlaceholderText(QString::fromStdString(
            m.framework == core::profiling::Framework::RLinf ? m.rlinf.outputDir : std::string("outputs/profile")));
    }
    m_derived->setText(derived);
}

RocprofPanel::RocprofPanel(ConfigSession *session, QWidget *parent) : ConfigPanel(session, parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *argsLabel = new QLabel("Arguments (cluster.profiling.args) — rendered as -k v / --key=value before "
                                 "`-- python`",
                                 this);
    argsLabel->setWordWrap(true);
    layout->addWidget(argsLabel);
    m_args = new KeyValueTable(session, "cluster.profiling.args", {}, false, this);
    m_args->table()->setToolTip("rocprof-sys-python options, e.g. T=hip (trace HIP), output-format=json. Keys and "
                                "values are str()-ed upstream (true becomes \"True\").");
    layout->addWidget(m_args);
    auto *envLabel = new QLabel("Environment (cluster.profiling.env) — merged over RLinf's ROCPROFSYS_TIME_OUTPUT, "
                                "ROCPROFSYS_OUTPUT_PATH and ROCPROFSYS_OUTPUT_PREFIX (yours win)",
                                this);
    envLabel->setWordWrap(true);
    layout->addWidget(envLabel);
    m_env = new KeyValueTable(session, "cluster.profiling.env", {}, false, this);
    m_env->table()->setToolTip("ROCPROFSYS_* variables for the profiled workers, e.g. ROCPROFSYS_SAMPLING_FREQ=100.");
    layout->addWidget(m_env);
}

void RocprofPanel::refresh(const SessionResult &r)
{
    m_args->refresh(r);
    m_env->refresh(r);
}

} // namespace ps::views
