#pragma once
// A line edit for integer lists typed as "0,1,4-7" or "3, 10, 50" (rangelist.h). Invalid text is
// marked and explained in the tooltip instead of being committed; valid text commits when
// editing finishes or after a short pause in typing, so the panes follow while typing without
// a recomposition per keystroke.

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
    QString problem() const { return m_problem; }

signals:
    void committed(const std::vector<long long> &values);

private:
    void commit();

    long long m_min;
    QTimer *m_debounce;
    QString m_problem;
    QString m_baseTip;
    QString m_lastCommitted;
};

} // namespace ps::views
