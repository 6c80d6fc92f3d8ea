#include "views/timeline/timelinesearchbar.h"

#include <QApplication>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>
#include <QToolButton>

namespace ps::views {

namespace {
QToolButton *arrowButton(Qt::ArrowType arrow, const QString &toolTip, QWidget *parent)
{
    auto *b = new QToolButton(parent);
    b->setArrowType(arrow);
    b->setToolTip(toolTip);
    return b;
}
} // namespace

TimelineSearchBar::TimelineSearchBar(QWidget *parent) : QWidget(parent)
{
    auto *bar = new QHBoxLayout(this);
    bar->setContentsMargins(0, 0, 0, 0);
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("searchEdit"));
    m_edit->setPlaceholderText(QStringLiteral("Search names (Enter: next)"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setMinimumWidth(116); // grows with the window; the toolbar must fit 800 px
    m_regex = new QCheckBox(QStringLiteral(".*"), this);
    m_regex->setToolTip(QStringLiteral("Regular expression"));
    auto *prev = arrowButton(Qt::LeftArrow, QStringLiteral("Previous match (Shift+Enter)"), this);
    auto *next = arrowButton(Qt::RightArrow, QStringLiteral("Next match (Enter)"), this);
    m_matchLabel = new QLabel(this);
    m_matchLabel->setObjectName(QStringLiteral("matchLabel"));
    m_matchLabel->setMinimumWidth(64);
    for (QWidget *w : {static_cast<QWidget *>(m_edit), static_cast<QWidget *>(m_regex), static_cast<QWidget *>(prev),
                       static_cast<QWidget *>(next), static_cast<QWidget *>(m_matchLabel)})
        bar->addWidget(w);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(200);
    connect(m_edit, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_regex, &QCheckBox::toggled, this, [this] { m_debounce->start(0); });
    connect(m_debounce, &QTimer::timeout, this, &TimelineSearchBar::searchRequested);
    connect(m_edit, &QLineEdit::returnPressed, this, [this] {
        if (m_debounce->isActive()) {
            m_debounce->stop();
            emit searchRequested();
            emit firstMatchRequested(); // selected when the result arrives
            return;
        }
        if (QApplication::keyboardModifiers() & Qt::ShiftModifier)
            emit previousRequested();
        else
            emit nextRequested();
    });
    connect(next, &QToolButton::clicked, this, &TimelineSearchBar::nextRequested);
    connect(prev, &QToolButton::clicked, this, &TimelineSearchBar::previousRequested);
}

SearchQuery TimelineSearchBar::query() const
{
    return {m_edit->text(), m_regex->isChecked()};
}

void TimelineSearchBar::setQuery(const QString &text, bool regex)
{
    m_regex->setChecked(regex);
    m_edit->setText(text);
    m_debounce->stop();
    emit searchRequested();
}

void TimelineSearchBar::showMatches(const SearchResult *result, int current)
{
    if (!result) {
        m_matchLabel->clear();
        return;
    }
    if (!result->error.isEmpty()) {
        m_matchLabel->setText(QStringLiteral("bad regex"));
        m_matchLabel->setToolTip(result->error);
        return;
    }
    m_matchLabel->setToolTip(
        result->digestsNotCounted == 0
            ? QString()
            : QStringLiteral("%1 report(s) opened from digest summaries have matching names; their events are "
                             "counted once zoomed into (paged in)")
                  .arg(result->digestsNotCounted));
    if (current >= 0)
        m_matchLabel->setText(QStringLiteral("%1 of %2").arg(current + 1).arg(result->count));
    else
        m_matchLabel->setText(QStringLiteral("%1 match%2%3")
                                  .arg(result->count)
                                  .arg(result->count == 1 ? "" : "es")
                                  .arg(result->digestsNotCounted ? QStringLiteral(" +") : QString()));
}

} // namespace ps::views
