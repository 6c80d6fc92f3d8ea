#pragma once
// The defaults tree of the composition: every config file merged, nested under the config whose
// defaults list brought it in, with its package and file. A group entry's option can be swapped
// from the options its group has on the search path (a group override such as
// `actor@actor_rollout_ref.actor=megatron_actor`). An entry whose option is an interpolation
// (`- actor@actor_rollout_ref.actor: ${model_engine}_actor`, verl 0.7.1+) shows the text as
// written and the choice it resolved to ("${model_engine}_actor → dp_actor").

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
    // The option of a source's defaults entry as written when it is an interpolation
    // ("${model_engine}_actor"), else "". The choice it resolved to ends the source's configPath.
    static std::string interpolatedOption(const core::config::ConfigSource &source);
    enum Column { ConfigColumn, OptionColumn, InterpolationColumn, PackageColumn, FileColumn };

private:
    ConfigSession *m_session;
    std::string m_shown; // signature of the tree shown, to rebuild only when it changed
};

} // namespace ps::views
