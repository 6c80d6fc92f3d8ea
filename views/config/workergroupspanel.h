#pragma once
// RLinf's cluster.profiling.worker_groups: a checkable list of the worker groups RLinf creates
// (each saying what it is; channel groups explained), the special entry `all`, and custom names.
// Matching upstream is case-insensitive on the text before the first ':' of the worker name.

#include "views/config/configpanel.h"

class QLineEdit;
class QListWidget;
class QListWidgetItem;

namespace ps::views {

class WorkerGroupsPanel : public ConfigPanel
{
    Q_OBJECT
public:
    explicit WorkerGroupsPanel(ConfigSession *session, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    QListWidget *list() const { return m_list; }
    QLineEdit *customName() const { return m_custom; }
    // The item of a group name, or nullptr.
    QListWidgetItem *item(const QString &name) const;

private:
    void commit();
    QListWidgetItem *addItem(const QString &name, const QString &meaning);

    QListWidget *m_list;
    QLineEdit *m_custom;
};

} // namespace ps::views
