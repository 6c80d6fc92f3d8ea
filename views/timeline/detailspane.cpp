#include "views/timeline/detailspane.h"

#include "views/scene/timeformat.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ps::views {

namespace {

// HTML-escaped, with a zero-width space after the punctuation of C++ and Python names so that a
// long template or module path can wrap.
QString breakable(const QString &text)
{
    QString out;
    for (const QChar c : text.toHtmlEscaped()) {
        out += c;
        if (c == u'_' || c == u',' || c == u':' || c == u'(' || c == u'/' || c == u';')
            out += QChar(0x200B);
    }
    return out;
}

} // namespace

DetailsPane::DetailsPane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("detailsText"));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    // The pane's width is the splitter's to give: a 360-character kernel name wraps inside it
    // instead of widening the pane and shrinking the timeline.
    m_text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_text);
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
    layout->addStretch(1);
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
}

void DetailsPane::showDetails(const TimelineEntry *entry, core::trace::EventRef ref, int64_t nudgeNs)
{
    if (!entry) {
        clear();
        return;
    }
    m_info = describeEvent(*entry, ref);
    m_reportIndex = entry->reportIndex;
    auto row = [](const QString &k, const QString &v) {
        return QStringLiteral("<tr><td style='color:#667'>%1&nbsp;</td><td>%2</td></tr>").arg(k, breakable(v));
    };
    QString html = QStringLiteral("<b>%1</b><table>").arg(breakable(m_info.name));
    if (m_info.fullName != m_info.name)
        html += row(QStringLiteral("full name"), m_info.fullName);
    html += row(QStringLiteral("kind"), m_info.kind);
    html += row(QStringLiteral("duration"), formatDuration(m_info.duration));
    html += row(QStringLiteral("start"), formatAxisTime(m_info.start, 1));
    html += row(QStringLiteral("end"), formatAxisTime(m_info.start + m_info.duration, 1));
    html += row(QStringLiteral("report"), m_info.report);
    html += row(QStringLiteral("where"), m_info.where);
    for (const QString &x : m_info.extra)
        html += row(QString(), x);
    if (!m_info.correlatedText.isEmpty())
        html += row(QStringLiteral("correlated"), m_info.correlatedText);
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
    return m_text->text();
}

} // namespace ps::views
