#pragma once
// A banner at the top of a workspace that lists what went wrong, one line per file with the
// core's own message ("/runs/x.sqlite: not an Nsight Systems export (no table ...)"). It stays
// until dismissed or replaced, so a screenshot or a user who looked away still sees it; the
// status bar only says that it is there.

#include <QFrame>
#include <QStringList>

class QLabel;
class QListWidget;

namespace ps::views {

class ProblemsBanner : public QFrame
{
    Q_OBJECT
public:
    explicit ProblemsBanner(QWidget *parent = nullptr);

    // Shows `title` over `lines` (hidden when `lines` is empty).
    void setProblems(const QString &title, const QStringList &lines);
    // Adds to what is shown (the lines not listed yet): problems that arrive one by one, such as
    // digests failing as they page in, stay listed until dismissed.
    void addProblems(const QString &title, const QStringList &lines);
    void clear();
    QStringList lines() const { return m_lines; }
    QString title() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitListHeight();

    QLabel *m_title = nullptr;
    QListWidget *m_list = nullptr;
    QStringList m_lines;
    QStringList m_titles; // of what is listed, distinct
};

} // namespace ps::views
