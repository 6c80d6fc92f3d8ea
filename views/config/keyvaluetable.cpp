#include "views/config/keyvaluetable.h"

#include "core/config/override.h"
#include "views/config/configsession.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ps::views {

using namespace core::configedit;

using core::config::Node;

KeyValueTable::KeyValueTable(ConfigSession *session, std::string dictKey, std::set<std::string> hidden,
                             bool stringValues, QWidget *parent)
    : ConfigPanel(session, parent), m_key(std::move(dictKey)), m_hidden(std::move(hidden)), m_strings(stringValues)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_table = new QTableWidget(0, 2, this);
    m_table->setHorizontalHeaderLabels({"Name", "Value"});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setMinimumHeight(90);
    m_table->setToolTip(QString::fromStdString(m_key) + ": one entry per row; type in the last row to add one.");
    layout->addWidget(m_table);
    auto *remove = new QPushButton("Remove selected", this);
    layout->addWidget(remove, 0, Qt::AlignLeft);
    m_message = new QLabel(this);
    m_message->setStyleSheet("color: #b00020");
    m_message->hide();
    layout->addWidget(m_message);
    bind(m_key, m_table);

    connect(m_table, &QTableWidget::cellChanged, this, &KeyValueTable::cellEdited);
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row >= 0 && row < int(m_names.size()))
            removeEntry(QString::fromStdString(m_names[row]));
    });
}

void KeyValueTable::setEntry(const QString &name, const QString &value)
{
    const std::string n = name.trimmed().toStdString();
    if (n.empty())
        return;
    if (n.find('.') != std::string::npos) {
        m_message->setText("A name containing '.' cannot be set by a Hydra override; edit the YAML file instead.");
        m_message->show();
        return;
    }
    m_message->hide();
    session()->setValue(m_key + "." + n, m_strings ? Node::string(value.toStdString()) : valueFromText(value));
}

void KeyValueTable::removeEntry(const QString &name)
{
    session()->removeKey(m_key + "." + name.toStdString());
}

void KeyValueTable::cellEdited(int row, int column)
{
    const QString name = m_table->item(row, 0) ? m_table->item(row, 0)->text() : QString();
    const QString value = m_table->item(row, 1) ? m_table->item(row, 1)->text() : QString();
    if (row >= int(m_names.size())) { // the add row
        if (!name.trimmed().isEmpty() && (column == 1 || !value.isEmpty()))
            setEntry(name, value);
        return;
    }
    const QString old = QString::fromStdString(m_names[row]);
    if (column == 0 && name != old) {
        removeEntry(old);
        if (!name.trimmed().isEmpty())
            setEntry(name, value);
    } else if (column == 1) {
        setEntry(name, value);
    }
}

void KeyValueTable::refresh(const SessionResult &r)
{
    if (QWidget *f = QApplication::focusWidget(); f && f != m_table && m_table->isAncestorOf(f))
        return; // do not pull a cell out from under the user's cursor
    const Node *dict = composedNode(r, m_key);
    m_names.clear();
    const bool was = m_table->blockSignals(true);
    m_table->setRowCount(0);
    if (dict && dict->isDict()) {
        for (size_t i = 0; i < dict->size(); ++i) {
            if (m_hidden.count(dict->keyAt(i)))
                continue;
            const int row = m_table->rowCount();
            m_table->insertRow(row);
            m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(dict->keyAt(i))));
            const Node &v = dict->valueAt(i);
            m_table->setItem(row, 1,
                             new QTableWidgetItem(v.isContainer()
                                                      ? QString::fromStdString(core::config::toOverrideValue(v))
                                                      : scalarText(&v)));
            m_names.push_back(dict->keyAt(i));
        }
    }
    m_table->insertRow(m_table->rowCount()); // the add row
    m_table->blockSignals(was);
}

} // namespace ps::views
