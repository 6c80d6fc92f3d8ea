#pragma once
// The side pane of the selected event: everything describeEvent() knows, a button that jumps to
// the correlated GPU work or CUDA API call, the collective instance a collective kernel belongs
// to (who arrived last, the others' wait, the transfer), and the offset nudge of the event's report.

#include "views/timeline/eventinfo.h"

#include <QWidget>

class QLabel;
class QTextBrowser;
class QPushButton;
class QSpinBox;

namespace ps::views {

class DetailsPane : public QWidget
{
    Q_OBJECT
public:
    explicit DetailsPane(QWidget *parent = nullptr);

    // Shows an event (entry may be null to show nothing). `nudgeNs` is the report's nudge.
    // `wallClockOrigin`: the axis is in UTC (TimelineViewState), times are shown as dates.
    void showDetails(const TimelineEntry *entry, core::trace::EventRef ref, int64_t nudgeNs,
                     std::optional<int64_t> wallClockOrigin = std::nullopt);
    void clear();
    // The line about the selected kernel's collective instance ("rank 5 arrived last; ..."), or
    // nothing (empty title).
    // `why` is its tooltip: how the instance was matched ("stream-order: ...").
    void setCollectiveNote(const QString &title, const QString &summary, const QString &why = {});
    QString collectiveNote() const; // plain text: title, newline, summary

    // The shown text as plain text (what Select All + Copy gives).
    QString text() const;
    QTextBrowser *textView() const { return m_text; }
    QPushButton *jumpButton() const { return m_jump; }
    // "Restore the Rows", under the collective note: shown while a collective's members are
    // squeezed onto the screen (collectivewiring.cpp), it gives back the layout they replaced.
    QPushButton *restoreRowsButton() const { return m_restoreRows; }
    QSpinBox *nudgeBox() const { return m_nudge; }
    std::optional<core::trace::EventRef> correlated() const { return m_info.correlated; }

signals:
    void jumpToCorrelated(core::trace::EventRef ref);
    // The nudge of the shown event's report changed (ns).
    void nudgeEdited(int reportIndex, qint64 ns);

private:
    QTextBrowser *m_text = nullptr;
    QLabel *m_collective = nullptr;
    QString m_collectivePlain;
    QPushButton *m_jump = nullptr;
    QPushButton *m_restoreRows = nullptr;
    QSpinBox *m_nudge = nullptr;
    QWidget *m_nudgeRow = nullptr;
    EventInfo m_info;
    int m_reportIndex = -1;
    bool m_updating = false;
};

} // namespace ps::views
