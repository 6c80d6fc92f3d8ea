#pragma once
// RLinf's cluster.profiling switches that are not backend options: enabled, the backend, the
// output directory (with the default validate_cfg derives shown), and rocprof-sys's args/env.

#include "views/config/configpanel.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace ps::views {

class KeyValueTable;

class RLinfGeneralPanel : public ConfigPanel
{
    Q_OBJECT
public:
    explicit RLinfGeneralPanel(ConfigSession *session, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    QCheckBox *enabled() const { return m_enabled; }
    QComboBox *backend() const { return m_backend; }
    QPushButton *addButton() const { return m_add; }
    // Whether the composed config has a cluster.profiling block (as of the last refresh).
    bool profilingPresent() const { return m_present; }

private:
    void buildMissingRow();
    void addProfiling();

    QFormLayout *m_form;
    QWidget *m_missing;
    QPushButton *m_add;
    QCheckBox *m_enabled;
    QComboBox *m_backend;
    bool m_present = true;
};

// An output directory key with the framework's derived default as placeholder and note.
class OutputDirPanel : public ConfigPanel
{
    Q_OBJECT
public:
    OutputDirPanel(ConfigSession *session, std::string key, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;
    QLineEdit *field() const { return m_field; }

private:
    std::string m_key;
    QLineEdit *m_field;
    QLabel *m_derived;
};

class RocprofPanel : public ConfigPanel
{
    Q_OBJECT
public:
    explicit RocprofPanel(ConfigSession *session, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;
    KeyValueTable *args() const { return m_args; }
    KeyValueTable *env() const { return m_env; }

private:
    KeyValueTable *m_args;
    KeyValueTable *m_env;
};

} // namespace ps::views
