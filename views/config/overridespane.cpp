#include "views/config/overridespane.h"

#include "core/config/configerror.h"
#include "core/config/override.h"
#include "views/config/configsession.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ps::views {

using namespace core::configedit;

OverridesPane::OverridesPane(ConfigSession *session, QWidget *parent) : QWidget(parent), m_session(session)
{
    setObjectName("overridesPane");
    auto *layout = new QVBoxLayout(this);
    m_list = new QListWidget(this);
    m_list->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    layout->addWidget(m_list);
    auto *row = new QHBoxLayout;
    m_input = new QLineEdit(this);
    m_input->setObjectName("overrideInput");
    m_input->setPlaceholderText("Add a Hydra override: a.b=1  +a.c=[1,2]  ~a.d  group@pkg=option");
    m_input->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *add = new QPushButton("Add", this);
    auto *remove = new QPushButton("Remove selected", this);
    row->addWidget(m_input, 1);
    row->addWidget(add);
    row->addWidget(remove);
    layout->addLayout(row);
    m_message = new QLabel(this);
    m_message->setStyleSheet("color: #b00020");
    m_message->setWordWrap(true);
    m_message->hide();
    layout->addWidget(m_message);

    connect(add, &QPushButton::clicked, this, [this] {
        if (addOverride(m_input->text()))
            m_input->clear();
    });
    connect(m_input, &QLineEdit::returnPressed, this, [this] {
        if (addOverride(m_input->text()))
            m_input->clear();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        OverrideList edits = m_session->state().edits;
        const int presetCount = int(m_session->state().preset.size());
        std::vector<int> rows;
        for (QListWidgetItem *it : m_list->selectedItems())
            if (m_list->row(it) >= presetCount)
                rows.push_back(m_list->row(it) - presetCount);
        std::sort(rows.rbegin(), rows.rend());
        for (int r : rows)
            edits.erase(edits.begin() + r);
        m_session->setEdits(edits, "Remove override(s)");
    });
    connect(m_session, &ConfigSession::stateChanged, this, &OverridesPane::showState);
}

bool OverridesPane::addOverride(const QString &text)
{
    const std::string t = text.trimmed().toStdString();
    if (t.empty())
        return false;
    try {
        core::config::parseOverride(t);
    } catch (const core::config::ConfigError &e) {
        m_message->setText(QString::fromStdString(e.message()));
        m_message->show();
        return false;
    }
    m_message->hide();
    OverrideList edits = m_session->state().edits;
    edits.push_back(t);
    m_session->setEdits(edits, "Add override " + text.trimmed());
    return true;
}

void OverridesPane::showState()
{
    m_list->clear();
    for (const std::string &o : m_session->state().preset) {
        auto *it = new QListWidgetItem(QString::fromStdString(o) + "    (preset)", m_list);
        it->setForeground(QColor(0x80, 0x80, 0x80));
        it->setFlags(it->flags() & ~Qt::ItemIsSelectable);
    }
    for (const std::string &o : m_session->state().edits)
        new QListWidgetItem(QString::fromStdString(o), m_list);
}

} // namespace ps::views
