#include "views/timeline/detailspane.h"

#include "views/timeline/eventcopy.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace ps::views {

DetailsPane::DetailsPane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    // A read-only text view, not a label: it wraps a 360-character kernel name anywhere without
    // zero-width spaces in the text, so what the user selects and copies is the name as searched.
    m_text = new QTextBrowser(this);
    m_text->setObjectName(QStringLiteral("detailsText"));
    m_text->setFrameShape(QFrame::NoFrame);
    m_text->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_text->viewport()->setAutoFillBackground(false);
    // The pane's width is the splitter's to give: a long name wraps inside it instead of widening
    // the pane and shrinking the timeline.
    m_text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Expanding);
    layout->addWidget(m_text, 1);
    m_collective = new QLabel(this);
    m_collective->setObjectName(QStringLiteral("collectiveNote"));
    m_collective->setWordWrap(true);
    m_collective->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_collective->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_collective->setStyleSheet(QStringLiteral("QLabel { background: #fdecea; border-left: 3px solid #c62828; "
                                               "padding: 4px; }"));
    m_collective->hide();
    layout->addWidget(m_collective);
    m_restoreRows = new QPushButton(QStringLiteral("Restore the Rows"), this);
    m_restoreRows->setObjectName(QStringLiteral("restoreRows"));
    m_restoreRows->setToolTip(QStringLiteral("Unfold the reports as they were before the collective's members were "
                                             "brought onto the screen"));
    m_restoreRows->hide();
    layout->addWidget(m_restoreRows);
    m_jump = new QPushButton(this);
    layout->addWidget(m_jump);
    m_nudgeRow = new QWidget(this);
    auto *row = new QHBoxLayout(m_nudgeRow);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(QStringLiteral("Report offset nudge"), m_nudgeRow));
    m_nudge = new QSpinBox(m_nudgeRow);
    m_nudge->setRange(-100'000'000, 100'000'000);
    m_nudge->setSuffix(QStringLiteral(" µs"));
    m_nudge->setToolTip(QStringLiteral("Shift this report on the shared axis, on top of the alignment"));
    row->addWidget(m_nudge, 1);
    layout->addWidget(m_nudgeRow);
    connect(m_jump, &QPushButton::clicked, this, [this] {
        if (m_info.correlated)
            emit jumpToCorrelated(*m_info.correlated);
    });
    connect(m_nudge, &QSpinBox::valueChanged, this, [this](int us) {
        if (!m_updating && m_reportIndex >= 0)
            emit nudgeEdited(m_reportIndex, qint64(us) * 1000);
    });
    clear();
}

void DetailsPane::clear()
{
    m_info = {};
    m_reportIndex = -1;
    m_text->setText(QStringLiteral("<i>Click an event to see its details.</i>"));
    m_jump->hide();
    m_nudgeRow->hide();
    setCollectiveNote({}, {});
}

void DetailsPane::setCollectiveNote(const QString &title, const QString &summary, const QString &why)
{
    m_collective->setText(QStringLiteral("<b>%1</b><br>%2").arg(title.toHtmlEscaped(), summary.toHtmlEscaped()));
    m_collective->setToolTip(why);
    m_collective->setVisible(!title.isEmpty());
    m_collectivePlain = title.isEmpty() ? QString() : title + QLatin1Char('\n') + summary;
}

QString DetailsPane::collectiveNote() const
{
    return m_collectivePlain;
}

void DetailsPane::showDetails(const TimelineEntry *entry, core::trace::EventRef ref, int64_t nudgeNs,
                              std::optional<int64_t> wallClockOrigin)
{
    if (!entry) {
        clear();
        return;
    }
    m_info = describeEvent(*entry, ref, wallClockOrigin);
    m_reportIndex = entry->reportIndex;
    auto row = [](const QString &k, const QString &v) {
        return QStringLiteral("<tr><td style='color:#667'>%1&nbsp;</td><td>%2</td></tr>").arg(k, v.toHtmlEscaped());
    };
    const auto rows = detailRows(m_info);
    QString html = QStringLiteral("<b>%1</b><table>").arg(m_info.name.toHtmlEscaped());
    for (qsizetype i = 1; i < rows.size(); ++i) // the name is the heading
        html += row(rows[i].first == QLatin1String("detail") ? QString() : rows[i].first, rows[i].second);
    html += QStringLiteral("</table>");
    m_text->setText(html);
    const bool gpu = core::trace::isGpuKind(entry->report->store().track(ref.track).kind());
    m_jump->setText(gpu ? QStringLiteral("Jump to the CUDA API call") : QStringLiteral("Jump to the GPU kernel"));
    m_jump->setVisible(m_info.correlated.has_value());
    m_updating = true;
    m_nudge->setValue(int(nudgeNs / 1000));
    m_updating = false;
    m_nudgeRow->show();
}

QString DetailsPane::text() const
{
    return m_text->toPlainText();
}

} // namespace ps::views
