#pragma once
// The defaults tree of the composition: every config file merged, nested under the config whose
// defaults list brought it in, with its package and file. A group entry's option can be swapped
// from the options its group has on the search path (a group override such as
// `actor@actor_rollout_ref.actor=megatron_actor`).

#include "core/configedit/sessionresult.h"

#include <QTreeWidget>

namespace ps::views {

class ConfigSession;

class DefaultsTreePane : public QTreeWidget
{
    Q_OBJECT
public:
    DefaultsTreePane(ConfigSession *session, QWidget *parent = nullptr);
    void showResult(const core::configedit::SessionResultPtr &result);

    // The Hydra override key of a source's defaults entry: "group" or "group@package".
    static std::string groupOverrideKey(const core::config::ConfigSource &source);

private:
    ConfigSession *m_session;
    std::string m_shown; // signature of the tree shown, to rebuild only when it changed
};

} // namespace ps::views
