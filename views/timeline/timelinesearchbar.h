#pragma once
// The timeline's search field: the query text, a regular-expression toggle, previous / next
// buttons and the "3 of 9" label. Typing is debounced (200 ms) before searchRequested; Enter
// searches at once while a search is still pending, else steps to the next match (Shift+Enter:
// previous).

#include "views/timeline/eventsearch.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTimer;

namespace ps::views {

class TimelineSearchBar : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineSearchBar(QWidget *parent = nullptr);

    SearchQuery query() const;
    // Sets the query and requests its search at once (no debounce).
    void setQuery(const QString &text, bool regex);
    // The match label: "" (no search), "bad regex" (with the error as tooltip), "N matches" or
    // "K of N" once a match is current.
    void showMatches(const SearchResult *result, int current);

    QLineEdit *edit() const { return m_edit; }
    QLabel *matchLabel() const { return m_matchLabel; }

signals:
    void searchRequested();
    // Enter before the debounce fired: the search just requested should select its first match.
    void firstMatchRequested();
    void nextRequested();
    void previousRequested();

private:
    QLineEdit *m_edit = nullptr;
    QCheckBox *m_regex = nullptr;
    QLabel *m_matchLabel = nullptr;
    QTimer *m_debounce = nullptr;
};

} // namespace ps::views
