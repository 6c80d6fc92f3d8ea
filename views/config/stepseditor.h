#pragma once
// The profiled training steps: a list typed as "3, 10, 50" or "1-3", with the framework's
// numbering stated (RLinf's global_step is 0-based, verl's global_steps 1-based) and what null
// means there (RLinf: every step; verl: no step).

#include "views/config/configpanel.h"

class QCheckBox;
class QLabel;

namespace ps::views {

class IntListField;

class StepsEditor : public ConfigPanel
{
    Q_OBJECT
public:
    enum class Numbering { RLinfZeroBased, VerlOneBased };
    StepsEditor(ConfigSession *session, std::string key, Numbering numbering, QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    IntListField *field() const { return m_field; }
    QCheckBox *onlyListed() const { return m_only; }

private:
    std::string m_key;
    Numbering m_numbering;
    QCheckBox *m_only;
    IntListField *m_field;
    QLabel *m_note;
};

} // namespace ps::views
