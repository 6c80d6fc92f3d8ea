#pragma once
// The Timeline workspace's toolbar: the Session menu, the alignment mode with its range name,
// the "Show" selector (all reports or the steps of one rank), zoom buttons and the search bar. It reports what
// the user asked for; the workspace decides what that does.

#include <QStringList>
#include <QWidget>

class QComboBox;
class QLineEdit;
class QMenu;

namespace ps::views {

class TimelineSearchBar;

class TimelineToolbar : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineToolbar(QWidget *parent = nullptr);

    // Shows an alignment spec ("utc", "start", "range:NAME[#K]") without emitting.
    void showAlignment(const QString &spec);
    // "All reports" followed by "Steps of <rank>"; `current` 0 = all, k = rank k - 1.
    void setRankChoices(const QStringList &ranks, int current);
    QString rangeName() const;
    void setRangeName(const QString &name);

    QMenu *sessionMenu() const { return m_sessionMenu; }
    TimelineSearchBar *searchBar() const { return m_search; }

signals:
    // The user chose an alignment ("utc", "start" or "range:NAME").
    void alignmentRequested(const QString &spec);
    // Enter in the range field (re-aligns on the range and refreshes a step overlay).
    void rangeEntered(const QString &name);
    // 0 = all reports, k = the steps of rank k - 1.
    void viewRequested(int index);
    // The zoom buttons: zoom about the centre by `factor` (> 1 zooms in), or fit everything.
    void zoomRequested(double factor);
    void fitRequested();
    void statusMessage(const QString &text, int timeoutMs);

private:
    QMenu *m_sessionMenu = nullptr;
    QComboBox *m_alignCombo = nullptr;
    QLineEdit *m_rangeEdit = nullptr;
    QComboBox *m_viewCombo = nullptr;
    TimelineSearchBar *m_search = nullptr;
};

} // namespace ps::views
