#include "views/config/workergroupspanel.h"

#include "views/config/configsession.h"

#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ps::views {

using namespace core::configedit;

using core::config::Node;

namespace {
const char *kKey = "cluster.profiling.worker_groups";

struct KnownGroup
{
    const char *name;
    const char *meaning;
};
// ../shared/spec/profiling-config.md A4: group_name values of RLinf's examples, then the channel
// worker groups (named after the channel; they never receive start/stop, so under
// capture-range=cudaProfilerApi their capture stays empty).
const KnownGroup kGroups[] = {
    {"all", "Special entry (any case): matches every worker group, channel workers included"},
    {"ActorGroup", "Training actor (FSDP policy); receives start/stop around profiled steps"},
    {"RolloutGroup", "Rollout / generation workers; receive start/stop around profiled steps"},
    {"EnvGroup", "Simulator environment workers; receive start/stop around profiled steps"},
    {"RewardGroup", "Reward model workers; never told to start/stop: a cudaProfilerApi capture stays empty"},
    {"InferenceGroup", "Inference workers (reasoning configs)"},
    {"AgentLoopGroup", "Agent-loop workers"},
    {"CriticGroup", "Critic workers"},
    {"Actor", "Channel worker group of the Actor channel (queues trajectories to the actor); no GPU work of its "
              "own, never receives start/stop"},
    {"Rollout", "Channel worker group of the Rollout channel (env observations to rollout); never receives "
                "start/stop"},
    {"Env", "Channel worker group of the Env channel (actions back to the env); never receives start/stop"},
    {"Reward", "Channel worker group created when a reward worker exists; never receives start/stop"},
};
} // namespace

WorkerGroupsPanel::WorkerGroupsPanel(ConfigSession *session, QWidget *parent) : ConfigPanel(session, parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_list = new QListWidget(this);
    m_list->setObjectName("workerGroups");
    m_list->setToolTip("cluster.profiling.worker_groups: the worker groups whose processes run under the profiler. "
                       "None or [] profiles nothing; matching is case-insensitive.");
    for (const KnownGroup &g : kGroups)
        addItem(g.name, g.meaning);
    layout->addWidget(m_list);
    auto *row = new QHBoxLayout;
    m_custom = new QLineEdit(this);
    m_custom->setObjectName("customGroup");
    m_custom->setPlaceholderText("Other group name…");
    auto *add = new QPushButton("Add", this);
    row->addWidget(m_custom);
    row->addWidget(add);
    layout->addLayout(row);
    bind(kKey, m_list);

    const auto addCustom = [this] {
        const QString name = m_custom->text().trimmed();
        if (name.isEmpty())
            return;
        QListWidgetItem *it = item(name);
        if (!it)
            it = addItem(name, "Custom group name");
        it->setCheckState(Qt::Checked);
        m_custom->clear();
        commit();
    };
    connect(add, &QPushButton::clicked, this, addCustom);
    connect(m_custom, &QLineEdit::returnPressed, this, addCustom);
    connect(m_list, &QListWidget::itemChanged, this, [this] { commit(); });
}

QListWidgetItem *WorkerGroupsPanel::addItem(const QString &name, const QString &meaning)
{
    auto *it = new QListWidgetItem(name);
    it->setFlags(it->flags() | Qt::ItemIsUserCheckable);
    it->setCheckState(Qt::Unchecked);
    it->setToolTip(meaning);
    it->setData(Qt::UserRole, name);
    const bool was = m_list->blockSignals(true);
    m_list->addItem(it);
    m_list->blockSignals(was);
    return it;
}

QListWidgetItem *WorkerGroupsPanel::item(const QString &name) const
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toString().compare(name, Qt::CaseInsensitive) == 0)
            return m_list->item(i);
    return nullptr;
}

void WorkerGroupsPanel::commit()
{
    Node groups = Node::list();
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked)
            groups.append(Node::string(m_list->item(i)->data(Qt::UserRole).toString().toStdString()));
    session()->setValue(kKey, groups);
}

void WorkerGroupsPanel::refresh(const SessionResult &r)
{
    const Node *n = composedNode(r, kKey);
    QStringList selected;
    if (n && n->isList()) {
        for (const Node &g : n->items())
            selected << scalarText(&g);
    } else if (n && n->isStringLike()) {
        selected << scalarText(n); // a str becomes [str] upstream
    }
    const bool was = m_list->blockSignals(true);
    for (const QString &s : selected)
        if (!item(s))
            addItem(s, "Custom group name");
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *it = m_list->item(i);
        const bool on = selected.contains(it->data(Qt::UserRole).toString(), Qt::CaseInsensitive);
        it->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    m_list->blockSignals(was);
}

} // namespace ps::views
