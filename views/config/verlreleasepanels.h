#pragma once
// verl profiler settings that only some releases have (verlversion.h traits): the torch schedule
// (0.9+), the rollout profiler block with its token window (0.9+), precision_debugger (0.8+), and
// result relocation with the finish hook (main). The workspace shows each only for a release
// that has it; every edit goes through the session's overrides like any other panel.

#include "views/config/configpanel.h"

#include <QMap>

#include <functional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ps::views {

class IntListField;

// global_profiler.relocate_results and finish_hook_* (verl main, #7408).
class VerlHooksPanel : public ConfigPanel
{
    Q_OBJECT
public:
    explicit VerlHooksPanel(ConfigSession *session, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    QCheckBox *relocate() const { return m_relocate; }
    QLineEdit *finishHookCmd() const { return m_cmd; }
    QCheckBox *finishHookAllRanks() const { return m_allRanks; }
    IntListField *finishHookRanks() const { return m_ranks; }

private:
    QCheckBox *m_relocate;
    QLineEdit *m_cmd;
    QCheckBox *m_allRanks;
    IntListField *m_ranks;
};

// global_profiler.global_tool_config.precision_debugger (verl 0.8+, msprobe).
class VerlPrecisionDebuggerPanel : public ConfigPanel
{
    Q_OBJECT
public:
    explicit VerlPrecisionDebuggerPanel(ConfigSession *session, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    QLineEdit *configPath() const { return m_configPath; }
    QCheckBox *stage(const QString &name) const { return m_stages.value(name); }
    QCheckBox *strict() const { return m_strict; }

private:
    void commitStages();

    QLineEdit *m_configPath;
    QWidget *m_stageBox;
    QMap<QString, QCheckBox *> m_stages;
    QStringList m_stageOrder;
    QCheckBox *m_strict;
};

// actor_rollout_ref.rollout.profiler: its own tool_config since verl 0.9 (#5760), with the
// rollout-only token window of the torch and npu profilers.
class VerlRolloutProfilerPanel : public ConfigPanel
{
    Q_OBJECT
public:
    explicit VerlRolloutProfilerPanel(ConfigSession *session, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    // tool: "torch" or "npu"; which: "start" or "end".
    QLineEdit *tokenField(const QString &tool, const QString &which) const;
    QLabel *engineNote() const { return m_engineNote; }

private:
    QMap<QString, QLineEdit *> m_tokens; // "torch.start" -> field
    QLabel *m_engineNote;
};

// <role>.profiler.tool_config.torch.schedule (verl 0.9+, #7099) of the role the tool panel edits.
class VerlTorchSchedulePanel : public ConfigPanel
{
    Q_OBJECT
public:
    VerlTorchSchedulePanel(ConfigSession *session, std::function<std::string()> rolePath, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    QSpinBox *field(const QString &name) const { return m_fields.value(name); }
    QLabel *state() const { return m_state; }

private:
    std::function<std::string()> m_rolePath;
    QMap<QString, QSpinBox *> m_fields;
    QLabel *m_state;
};

} // namespace ps::views
