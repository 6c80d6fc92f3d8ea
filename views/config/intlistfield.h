#pragma once
// A line edit for integer lists typed as "0,1,4-7" or "3, 10, 50" (rangelist.h). Invalid text is
// not committed: it stays in the field, marked, with the reason in the tooltip and in
// `problem()`, which the workspace lists in Diagnostics (the config keeps its old value, and
// exports wait until the text is fixed). Valid text commits when editing finishes or after a
// short pause in typing, so the panes follow while typing without a recomposition per keystroke.

#include <QLineEdit>

#include <vector>

class QTimer;

namespace ps::views {

class IntListField : public QLineEdit
{
    Q_OBJECT
public:
    explicit IntListField(long long minValue, QWidget *parent = nullptr);

    // Shows `values` (formatted) unless the user is typing in the field.
    void showValues(const std::vector<long long> &values);
    // Why the text is not a valid list ("'x' is not an integer"); empty when it is.
    QString problem() const { return m_problem; }

signals:
    void committed(const std::vector<long long> &values);
    void problemChanged();

private:
    void commit();
    void setProblem(const QString &problem);

    long long m_min;
    QTimer *m_debounce;
    QString m_problem;
    QString m_baseTip;
    QString m_lastCommitted;
};

} // namespace ps::views
