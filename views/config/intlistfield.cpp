#include "views/config/intlistfield.h"

#include "core/configedit/rangelist.h"

#include <QTimer>

namespace ps::views {

using namespace core::configedit;

IntListField::IntListField(long long minValue, QWidget *parent) : QLineEdit(parent), m_min(minValue)
{
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(400);
    connect(m_debounce, &QTimer::timeout, this, &IntListField::commit);
    connect(this, &QLineEdit::textEdited, this, [this] {
        if (m_baseTip.isEmpty())
            m_baseTip = toolTip();
        const IntListParse p = parseIntList(text().toStdString(), m_min);
        m_problem = QString::fromStdString(p.error);
        setStyleSheet(p.ok() ? QString() : QStringLiteral("QLineEdit { background: #ffe4e1; }"));
        setToolTip(p.ok() ? m_baseTip : m_problem);
        m_debounce->start();
    });
    connect(this, &QLineEdit::editingFinished, this, &IntListField::commit);
}

void IntListField::showValues(const std::vector<long long> &values)
{
    if (hasFocus() && m_debounce->isActive())
        return; // the user is typing; their text wins
    const QString t = QString::fromStdString(formatIntList(values));
    m_lastCommitted = t;
    if (t != text() || !m_problem.isEmpty()) {
        const bool was = blockSignals(true);
        setText(t);
        blockSignals(was);
    }
}

void IntListField::commit()
{
    m_debounce->stop();
    const IntListParse p = parseIntList(text().toStdString(), m_min);
    m_problem = QString::fromStdString(p.error);
    if (!p.ok())
        return;
    const QString normal = QString::fromStdString(formatIntList(p.values));
    if (normal == m_lastCommitted)
        return;
    m_lastCommitted = normal;
    emit committed(p.values);
}

} // namespace ps::views
