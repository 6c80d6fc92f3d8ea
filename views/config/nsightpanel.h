#pragma once
// Nsight Systems options: the trace APIs as checkboxes, the common switches with their upstream
// meaning as tooltips, bare flags (RLinf), RLinf's stop-on-range-end alias, and a table for any
// other option. One editor serves RLinf's cluster.profiling.options/flags and verl's
// worker/controller_nsight_options; each control edits one entry of the options dict.

#include "views/config/configpanel.h"

#include <map>

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace ps::views {

class KeyValueTable;

struct NsightPanelSpec
{
    std::string optionsKey;      // the options dict
    std::string flagsKey;        // RLinf flags list; "" when the framework has none
    std::string defaultTraceKey; // "t" (RLinf preset) or "trace" (verl)
    bool rlinfAlias = false;     // offer stop-on-range-end
    bool stringValues = false;   // verl: option values must be strings
};

class NsightPanel : public ConfigPanel
{
    Q_OBJECT
public:
    NsightPanel(ConfigSession *session, NsightPanelSpec spec, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    QCheckBox *traceApi(const QString &api) const { return m_trace.value(api); }
    // The combo of an option ("sample", "capture-range", "stop-on-range-end", ...).
    QComboBox *option(const QString &name) const { return m_combos.value(name); }
    QCheckBox *flag(const QString &name) const { return m_flags.value(name); }
    KeyValueTable *otherOptions() const { return m_other; }

private:
    QWidget *buildFlagsBox();
    QComboBox *addCombo(const QString &name, const QStringList &values, bool editable, const QString &tip);
    void commitTrace();
    void commitFlags();
    void comboChanged(const QString &name);
    std::string traceKey(const core::configedit::SessionResult *r) const;

    NsightPanelSpec m_spec;
    QMap<QString, QCheckBox *> m_trace;
    QMap<QString, QComboBox *> m_combos;
    QMap<QString, QCheckBox *> m_flags;
    QLineEdit *m_otherFlags = nullptr;
    KeyValueTable *m_other;
    QStringList m_traceOrder; // the trace value's items as last shown, to keep the user's order
};

} // namespace ps::views
