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
        const QString problem = QString::fromStdString(parseIntList(text().toStdString(), m_min).error);
        const bool stillInvalid = !problem.isEmpty() && problem == m_problem;
        setProblem(problem);
        if (stillInvalid)
            emit problemChanged(); // the same reason, but the text the diagnostic quotes changed
        m_debounce->start();
    });
    connect(this, &QLineEdit::editingFinished, this, &IntListField::commit);
}

void IntListField::setProblem(const QString &problem)
{
    if (problem == m_problem)
        return;
    m_problem = problem;
    setStyleSheet(problem.isEmpty() ? QString() : QStringLiteral("QLineEdit { background: #ffe4e1; }"));
    setToolTip(problem.isEmpty() ? m_baseTip : problem);
    emit problemChanged();
}

void IntListField::showValues(const std::vector<long long> &values)
{
    if (hasFocus() && m_debounce->isActive())
        return; // the user is typing; their text wins
    const QString t = QString::fromStdString(formatIntList(values));
    const bool changedElsewhere = t != m_lastCommitted; // undo, a preset, the override list
    m_lastCommitted = t;
    if (!m_problem.isEmpty() && !changedElsewhere)
        return; // the invalid text stays, flagged, until the user fixes it
    if (t != text()) {
        const bool was = blockSignals(true);
        setText(t);
        blockSignals(was);
    }
    setProblem(QString());
}

void IntListField::commit()
{
    m_debounce->stop();
    const IntListParse p = parseIntList(text().toStdString(), m_min);
    setProblem(QString::fromStdString(p.error));
    if (!p.ok())
        return;
    const QString normal = QString::fromStdString(formatIntList(p.values));
    if (normal == m_lastCommitted)
        return;
    m_lastCommitted = normal;
    emit committed(p.values);
}

} // namespace ps::views
