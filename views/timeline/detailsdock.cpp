#include "views/timeline/detailsdock.h"

#include "views/common/layoutmemory.h"
#include "views/timeline/detailspane.h"

#include <QAbstractButton>
#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSplitter>
#include <QStyleOptionButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ps::views {

namespace {

const QString kFoldedKey = QStringLiteral("timeline.detailsFolded");

// A button whose label reads bottom to top, as a folded side panel's tab does (its \u25B4 then
// points left, where the details unfold).
class VerticalTabButton : public QAbstractButton
{
public:
    explicit VerticalTabButton(const QString &text, QWidget *parent) : QAbstractButton(parent)
    {
        setText(text);
        setCursor(Qt::PointingHandCursor);
        setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    }
    QSize sizeHint() const override
    {
        const QFontMetrics fm = fontMetrics();
        return {fm.height() + 8, fm.horizontalAdvance(text()) + 16};
    }
    QSize minimumSizeHint() const override { return {sizeHint().width(), 0}; }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        QStyleOptionButton option;
        option.initFrom(this);
        if (isDown())
            option.state |= QStyle::State_Sunken;
        style()->drawControl(QStyle::CE_PushButtonBevel, &option, &p, this);
        p.translate(0, height());
        p.rotate(-90);
        p.drawText(QRect(8, 0, height() - 16, width()), Qt::AlignLeft | Qt::AlignVCenter, text());
    }
};

} // namespace

DetailsDock::DetailsDock(QWidget *parent) : QWidget(parent)
{
    m_header = new QWidget(this);
    auto *headerRow = new QHBoxLayout(m_header);
    headerRow->setContentsMargins(6, 2, 2, 0);
    headerRow->addWidget(new QLabel(QStringLiteral("<b>Event details</b>"), m_header));
    headerRow->addStretch();
    m_foldButton = new QToolButton(m_header);
    m_foldButton->setObjectName(QStringLiteral("foldDetails"));
    m_foldButton->setArrowType(Qt::RightArrow);
    m_foldButton->setAutoRaise(true);
    m_foldButton->setToolTip(QStringLiteral("Fold the details into a strip, giving the timeline their width "
                                            "(Ctrl+Shift+D)"));
    headerRow->addWidget(m_foldButton);
    m_pane = new DetailsPane(this);
    m_strip = new VerticalTabButton(QStringLiteral("\u25B4 Event details"), this);
    m_strip->setObjectName(QStringLiteral("detailsStrip"));
    m_strip->hide();
    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_header);
    column->addWidget(m_pane, 1);
    column->addWidget(m_strip, 1);
    m_foldAction = new QAction(QStringLiteral("Fold Event Details"), this);
    m_foldAction->setObjectName(QStringLiteral("foldDetailsAction"));
    m_foldAction->setCheckable(true);
    m_foldAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    connect(m_foldAction, &QAction::toggled, this, &DetailsDock::setFolded);
    connect(m_foldButton, &QToolButton::clicked, this, [this] { setFolded(true); });
    connect(m_strip, &QAbstractButton::clicked, this, [this] { setFolded(false); });
    refreshStrip();
}

void DetailsDock::setFolded(bool folded)
{
    if (folded == m_folded)
        return;
    if (folded)
        m_unfoldedWidth = width();
    m_folded = folded;
    m_header->setVisible(!folded);
    m_pane->setVisible(!folded);
    m_strip->setVisible(folded);
    setMaximumWidth(folded ? m_strip->sizeHint().width() : QWIDGETSIZE_MAX);
    resizeInSplitter(folded ? m_strip->sizeHint().width() : unfoldedWidth());
    m_foldAction->setChecked(folded);
    if (m_restored)
        LayoutMemory::setValue(kFoldedKey, LayoutMemory::screenSizeOf(this), folded);
    emit foldedChanged(folded);
}

// The width the details had, or, folded since the window opened, a fifth of the window.
int DetailsDock::unfoldedWidth() const
{
    return m_unfoldedWidth > m_strip->sizeHint().width() ? m_unfoldedWidth
                                                         : std::clamp(window()->width() / 5, 220, 360);
}

// The splitter neither takes a folded dock's width nor gives it back: the neighbour does.
void DetailsDock::resizeInSplitter(int width)
{
    auto *splitter = qobject_cast<QSplitter *>(parentWidget());
    const int index = splitter ? splitter->indexOf(this) : -1;
    if (index < 0)
        return;
    QList<int> sizes = splitter->sizes();
    const int gained = width - sizes[index];
    for (int i = 0; i < sizes.size(); ++i)
        if (i != index && sizes[i] > gained) {
            sizes[i] -= gained;
            sizes[index] = width;
            break;
        }
    splitter->setSizes(sizes);
}

void DetailsDock::refreshStrip()
{
    const QString shown = m_pane->text().section(QLatin1Char('\n'), 0, 0).trimmed();
    m_strip->setToolTip(shown.isEmpty() ? QStringLiteral("Show the event details (Ctrl+Shift+D)")
                                        : QStringLiteral("Selected: %1\nClick to show its details "
                                                         "(Ctrl+Shift+D)")
                                              .arg(shown));
}

void DetailsDock::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_restored)
        return;
    m_restored = true;
    m_unfoldedWidth = width();
    if (LayoutMemory::value(kFoldedKey, LayoutMemory::screenSizeOf(this), false).toBool()) {
        m_restored = false; // applying what was remembered is not a new choice to save
        setFolded(true);
        m_restored = true;
    }
}

} // namespace ps::views
