#include "views/common/problemsbanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ps::views {

namespace {
constexpr int kVisibleRows = 4; // more scroll: the banner must not push the timeline away
}

ProblemsBanner::ProblemsBanner(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("problemsBanner"));
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(QStringLiteral("#problemsBanner { background: #fdecea; border: 1px solid #e0a19b; }"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->setSpacing(2);
    auto *head = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    // A long title wraps instead of widening the window.
    m_title->setWordWrap(true);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    head->addWidget(m_title, 1);
    auto *dismiss = new QToolButton(this);
    dismiss->setText(QStringLiteral("Dismiss"));
    dismiss->setAutoRaise(true);
    connect(dismiss, &QToolButton::clicked, this, &ProblemsBanner::clear);
    head->addWidget(dismiss);
    layout->addLayout(head);
    m_list = new QListWidget(this);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection); // to copy the messages
    // A long line wraps: sideways scrolling hid the end of a message (its reason) and the
    // scroll bar took one of the rows.
    m_list->setWordWrap(true);
    m_list->setResizeMode(QListView::Adjust);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    layout->addWidget(m_list);
    hide();
}

void ProblemsBanner::setProblems(const QString &title, const QStringList &lines)
{
    m_lines = lines;
    m_titles = {title};
    if (lines.isEmpty()) {
        clear();
        return;
    }
    m_title->setText(title);
    m_list->clear();
    for (const QString &line : lines) {
        auto *item = new QListWidgetItem(line, m_list);
        item->setToolTip(line);
    }
    show();
    fitListHeight();
}

// As tall as the first rows at the list's width, wrapped lines included; more scroll.
void ProblemsBanner::fitListHeight()
{
    const int rows = std::min<int>(m_list->count(), kVisibleRows);
    const QFontMetrics metrics(m_list->font());
    const int width = std::max(80, m_list->viewport()->width() - 8);
    int height = 0;
    for (int i = 0; i < rows; ++i)
        height +=
            metrics.boundingRect(QRect(0, 0, width, 10000), Qt::TextWordWrap, m_list->item(i)->text()).height() + 2;
    m_list->setFixedHeight(height + 2 * m_list->frameWidth() + 4);
}

void ProblemsBanner::resizeEvent(QResizeEvent *event)
{
    QFrame::resizeEvent(event);
    if (m_list->count() > 0)
        fitListHeight();
}

void ProblemsBanner::addProblems(const QString &title, const QStringList &lines)
{
    if (m_lines.isEmpty()) {
        setProblems(title, lines);
        return;
    }
    const QString first = m_titles.value(0);
    QStringList all = m_lines;
    for (const QString &line : lines)
        if (!all.contains(line))
            all << line;
    const QStringList titles = m_titles.contains(title) ? m_titles : m_titles + QStringList{title};
    setProblems(titles.size() == 1 ? first : QStringLiteral("%1 problems; the latest: %2").arg(all.size()).arg(title),
                all);
    m_titles = titles;
}

void ProblemsBanner::clear()
{
    m_lines.clear();
    m_titles.clear();
    m_list->clear();
    hide();
}

QString ProblemsBanner::title() const
{
    return m_title->text();
}

} // namespace ps::views
