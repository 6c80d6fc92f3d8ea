#pragma once
// verl's profiler settings: the global tool and switches (global_profiler), per-role enable /
// all ranks / rank list, and the tool configs of the npu, torch and torch_memory profilers.

#include "views/config/configpanel.h"

#include <QStringList>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QGroupBox;
class QLabel;
class QSpinBox;

namespace ps::views {

class IntListField;
class VerlPrecisionDebuggerPanel;
class VerlTorchSchedulePanel;

class VerlGlobalPanel : public ConfigPanel
{
    Q_OBJECT
public:
    explicit VerlGlobalPanel(ConfigSession *session, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    QComboBox *tool() const { return m_tool; }
    QCheckBox *continuous() const { return m_continuous; }
    QCheckBox *nsysDiscrete() const { return m_discrete; }

private:
    QComboBox *m_tool;
    QCheckBox *m_continuous;
    QCheckBox *m_discrete;
};

// One row per role profiler block: enable, all ranks, ranks ("0,1,4-7").
class VerlRolesPanel : public ConfigPanel
{
    Q_OBJECT
public:
    explicit VerlRolesPanel(ConfigSession *session, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    QCheckBox *enable(const QString &role) const { return m_rows.value(role).enable; }
    QCheckBox *allRanks(const QString &role) const { return m_rows.value(role).allRanks; }
    IntListField *ranks(const QString &role) const { return m_rows.value(role).ranks; }

private:
    struct Row
    {
        std::string path; // "actor_rollout_ref.actor.profiler"
        QLabel *name = nullptr;
        QCheckBox *enable = nullptr;
        QCheckBox *allRanks = nullptr;
        IntListField *ranks = nullptr;
        QLabel *note = nullptr;
    };
    QMap<QString, Row> m_rows;
};

// Tool configs of the selected role: npu (level, contents, analysis, discrete), torch (contents,
// discrete; the schedule from verl 0.9), torch_memory (trace_alloc_max_entries, stack_depth,
// global) and precision_debugger (global, verl 0.8+). Only what the header's verl release has.
class VerlToolPanel : public ConfigPanel
{
    Q_OBJECT
public:
    explicit VerlToolPanel(ConfigSession *session, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    QComboBox *role() const { return m_role; }
    QComboBox *npuLevel() const { return m_npuLevel; }
    QCheckBox *npuContent(const QString &c) const { return m_npuContents.value(c); }
    QCheckBox *npuAnalysis() const { return m_npuAnalysis; }
    QCheckBox *npuDiscrete() const { return m_npuDiscrete; }
    QCheckBox *torchContent(const QString &c) const { return m_torchContents.value(c); }
    QCheckBox *torchDiscrete() const { return m_torchDiscrete; }
    QSpinBox *maxEntries() const { return m_maxEntries; }
    QSpinBox *stackDepth() const { return m_stackDepth; }
    VerlTorchSchedulePanel *torchSchedule() const { return m_schedule; }
    QGroupBox *torchScheduleBox() const { return m_scheduleBox; }
    VerlPrecisionDebuggerPanel *precisionDebugger() const { return m_debugger; }
    QGroupBox *precisionDebuggerBox() const { return m_debuggerBox; }

private:
    std::string rolePath() const;
    QGroupBox *buildMemoryBox();
    void connectEdits();
    void addReleaseBoxes(QLayout *layout);
    void showRelease(const core::configedit::SessionResult &r, const QString &tool);
    void commitContents(const std::string &tool, const QMap<QString, QCheckBox *> &boxes, const QStringList &order);

    QComboBox *m_role;
    QGroupBox *m_npuBox, *m_torchBox, *m_memBox;
    QComboBox *m_npuLevel;
    QMap<QString, QCheckBox *> m_npuContents, m_torchContents;
    QCheckBox *m_npuAnalysis, *m_npuDiscrete, *m_torchDiscrete;
    QSpinBox *m_maxEntries, *m_stackDepth;
    QGroupBox *m_scheduleBox = nullptr, *m_debuggerBox = nullptr;
    VerlTorchSchedulePanel *m_schedule = nullptr;
    VerlPrecisionDebuggerPanel *m_debugger = nullptr;
};

} // namespace ps::views
