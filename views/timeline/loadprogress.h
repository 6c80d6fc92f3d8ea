#pragma once
// The progress row of the Timeline's loads (text, bar, Cancel), shown while the document loads,
// and what a load could not read: the problems banner lists the files that failed or that a
// cancel left unloaded and the folders that held no reports. When the load ends the row hides
// and says in the status bar what opened ("Loading cancelled — 5 report(s), 1,234 events; 2
// file(s) could not be loaded").

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace ps::views {

class ProblemsBanner;
class TimelineDocument;

class LoadProgressRow : public QWidget
{
    Q_OBJECT
public:
    LoadProgressRow(TimelineDocument *document, ProblemsBanner *problems, QWidget *parent);

    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *cancelButton() const { return m_cancel; }

signals:
    void statusMessage(const QString &text, int timeoutMs);

private:
    void connectLoader();
    void loadFinished(bool cancelled);

    TimelineDocument *m_doc;
    ProblemsBanner *m_problems;
    QProgressBar *m_progress = nullptr;
    QLabel *m_text = nullptr;
    QPushButton *m_cancel = nullptr;
    int m_failedCount = 0;       // files of the last load that failed
    int m_cancelledCount = 0;    // and that a cancel left unloaded
    bool m_nothingFound = false; // the last load's folders held no reports
};

} // namespace ps::views
