#pragma once
// An editable name/value table over one dict of the config (nsys options not covered by a
// dedicated control, rocprof-sys args and env). Each cell edit is one override of one entry
// (`dict.name=value`, `~dict.name`), so entries keep their order and the rest of the dict is
// untouched. The last row is empty and adds an entry. Names containing '.' cannot be addressed
// by a Hydra override and are refused with a message.

#include "views/config/configpanel.h"

#include <set>

class QLabel;
class QTableWidget;

namespace ps::views {

class KeyValueTable : public ConfigPanel
{
    Q_OBJECT
public:
    // `hidden`: names edited by other controls of the same panel. `stringValues`: store every
    // value as a string (verl's nsight options must be strings: Ray str()-formats them).
    KeyValueTable(ConfigSession *session, std::string dictKey, std::set<std::string> hidden, bool stringValues,
                  QWidget *parent = nullptr);
    void refresh(const core::configedit::SessionResult &result) override;

    QTableWidget *table() const { return m_table; }
    // Sets (or adds) one entry as the user would by typing in the table.
    void setEntry(const QString &name, const QString &value);
    void removeEntry(const QString &name);

private:
    void cellEdited(int row, int column);

    std::string m_key;
    std::set<std::string> m_hidden;
    bool m_strings;
    QTableWidget *m_table;
    QLabel *m_message;
    std::vector<std::string> m_names; // row -> entry name shown
};

} // namespace ps::views
