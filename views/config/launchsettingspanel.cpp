#include "views/config/launchsettingspanel.h"

#include "views/config/configsession.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace ps::views {

namespace {
QLineEdit *field(QWidget *parent, const char *name, const QString &placeholder, const QString &tip)
{
    auto *e = new QLineEdit(parent);
    e->setObjectName(name);
    e->setPlaceholderText(placeholder);
    e->setToolTip(tip);
    return e;
}
std::optional<std::string> optionalText(const QLineEdit *e)
{
    const QString t = e->text().trimmed();
    return t.isEmpty() ? std::nullopt : std::optional<std::string>(t.toStdString());
}
} // namespace

LaunchSettingsPanel::LaunchSettingsPanel(ConfigSession *session, QWidget *parent) : QWidget(parent), m_session(session)
{
    auto *form = new QFormLayout(this);
    m_form = form;
    auto *intro = new QLabel("These shape the launch plan and exports only; the composed config is unchanged.", this);
    intro->setWordWrap(true);
    form->addRow(intro);
    m_python = field(this, "python", "/usr/bin/python3",
                     "Interpreter of the workers: RLinf's node sys.executable or python_interpreter_path");
    m_repo = field(this, "rlinfRepo", "/opt/RLinf", "RLinf checkout on the cluster (driver line, remote config dir)");
    m_cwd = field(this, "driverCwd", "the RLinf checkout",
                  "Working directory of the driver; a relative runner.logger.log_path is made absolute against it");
    m_logPath = field(this, "logPath", "from the config (runner.logger.log_path)",
                      "run_embodiment.sh overrides runner.logger.log_path with logs/<date>-<config>");
    m_experiment = field(this, "experimentName", "from the config (runner.logger.experiment_name)", QString());
    m_raySession = field(this, "raySessionDir", "/tmp/ray/session_latest",
                         "Ray's session directory on each node: nsys reports go to <session>/logs/nsight");
    m_remoteConfig = field(this, "remoteConfigDir", "RLinf: <repo>/examples/embodiment/config/; verl: packaged",
                           "The config dir as the cluster sees it, for the driver and ray job lines");
    m_workingDir = field(this, "workingDir", ".", "ray job submit: the runtime env's working_dir");
    m_nodes = new QSpinBox(this);
    m_nodes->setObjectName("numNodes");
    m_nodes->setRange(0, 4096);
    m_nodes->setSpecialValueText("from the config");
    m_nodes->setToolTip("Nodes (0 = RLinf cluster.num_nodes / verl trainer.nnodes)");
    m_gpus = new QSpinBox(this);
    m_gpus->setObjectName("gpusPerNode");
    m_gpus->setRange(0, 64);
    m_gpus->setSpecialValueText("from the config");
    m_gpus->setToolTip("Accelerators per node (0 = verl trainer.n_gpus_per_node, or 8 for RLinf)");
    form->addRow("Python", m_python);
    form->addRow("RLinf checkout", m_repo);
    form->addRow("Driver cwd", m_cwd);
    form->addRow("Log path", m_logPath);
    form->addRow("Experiment", m_experiment);
    form->addRow("Ray session dir", m_raySession);
    form->addRow("Remote config dir", m_remoteConfig);
    form->addRow("Working dir", m_workingDir);
    form->addRow("Nodes", m_nodes);
    form->addRow("GPUs per node", m_gpus);
    for (QLineEdit *e : {m_python, m_repo, m_cwd, m_logPath, m_experiment, m_raySession, m_remoteConfig, m_workingDir})
        connect(e, &QLineEdit::editingFinished, this, &LaunchSettingsPanel::commit);
    for (QSpinBox *s : {m_nodes, m_gpus})
        connect(s, &QSpinBox::editingFinished, this, &LaunchSettingsPanel::commit);
    showSettings();
}

void LaunchSettingsPanel::showFramework(bool rlinf)
{
    for (QLineEdit *e : {m_python, m_repo, m_cwd, m_logPath, m_experiment})
        m_form->setRowVisible(e, rlinf);
    m_gpus->setToolTip(rlinf ? "Accelerators per node (0 = 8; RLinf's config does not say, RLinf asks the node)"
                             : "Accelerators per node (0 = trainer.n_gpus_per_node)");
    m_nodes->setToolTip(rlinf ? "Nodes (0 = cluster.num_nodes)" : "Nodes (0 = trainer.nnodes)");
    m_remoteConfig->setPlaceholderText(rlinf ? "<RLinf checkout>/examples/embodiment/config/"
                                             : "verl's packaged config (no --config-path)");
}

bool LaunchSettingsPanel::isRowShown(QWidget *field) const
{
    return m_form->isRowVisible(field);
}

void LaunchSettingsPanel::showSettings()
{
    const auto &l = m_session->launchOptions();
    const core::profiling::LaunchOptions defaults;
    const auto show = [](QLineEdit *e, const std::string &v, const std::string &def) {
        e->setText(v == def ? QString() : QString::fromStdString(v));
    };
    show(m_python, l.python, defaults.python);
    show(m_repo, l.rlinfRepo, defaults.rlinfRepo);
    m_cwd->setText(QString::fromStdString(l.driverCwd.value_or("")));
    m_logPath->setText(QString::fromStdString(l.logPath.value_or("")));
    m_experiment->setText(QString::fromStdString(l.experimentName.value_or("")));
    show(m_raySession, l.raySessionDir, defaults.raySessionDir);
    m_remoteConfig->setText(QString::fromStdString(l.remoteConfigDir));
    show(m_workingDir, l.workingDir, defaults.workingDir);
    m_nodes->setValue(int(m_session->cluster().numNodes.value_or(0)));
    m_gpus->setValue(int(m_session->cluster().gpusPerNode.value_or(0)));
}

void LaunchSettingsPanel::commit()
{
    core::profiling::LaunchOptions l;
    const auto text = [](QLineEdit *e, std::string &target) {
        if (!e->text().trimmed().isEmpty())
            target = e->text().trimmed().toStdString();
    };
    text(m_python, l.python);
    text(m_repo, l.rlinfRepo);
    l.driverCwd = optionalText(m_cwd);
    l.logPath = optionalText(m_logPath);
    l.experimentName = optionalText(m_experiment);
    text(m_raySession, l.raySessionDir);
    l.remoteConfigDir = m_remoteConfig->text().trimmed().toStdString();
    text(m_workingDir, l.workingDir);
    core::profiling::ClusterDescription c;
    if (m_nodes->value() > 0)
        c.numNodes = m_nodes->value();
    if (m_gpus->value() > 0)
        c.gpusPerNode = m_gpus->value();
    m_session->setCluster(c);
    m_session->setLaunchOptions(l);
}

} // namespace ps::views
