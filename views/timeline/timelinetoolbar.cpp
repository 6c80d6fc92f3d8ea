#include "views/timeline/timelinetoolbar.h"

#include "views/timeline/timelinesearchbar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QToolButton>

#include <algorithm>

namespace ps::views {

TimelineToolbar::TimelineToolbar(QWidget *parent) : QWidget(parent)
{
    auto *bar = new QHBoxLayout(this);
    bar->setContentsMargins(6, 4, 6, 0);
    auto *session = new QToolButton(this);
    session->setText(QStringLiteral("Session"));
    session->setPopupMode(QToolButton::InstantPopup);
    m_sessionMenu = new QMenu(session);
    session->setMenu(m_sessionMenu);
    bar->addWidget(session);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(QStringLiteral("Align"), this));
    m_alignCombo = new QComboBox(this);
    m_alignCombo->setObjectName(QStringLiteral("alignCombo"));
    m_alignCombo->addItem(QStringLiteral("UTC"), QStringLiteral("utc"));
    m_alignCombo->addItem(QStringLiteral("Start"), QStringLiteral("start"));
    m_alignCombo->addItem(QStringLiteral("On range"), QStringLiteral("range"));
    bar->addWidget(m_alignCombo);
    m_rangeEdit = new QLineEdit(this);
    m_rangeEdit->setObjectName(QStringLiteral("alignRange"));
    m_rangeEdit->setPlaceholderText(QStringLiteral("range name, e.g. step#2"));
    m_rangeEdit->setToolTip(
        QStringLiteral("NVTX range for 'On range' alignment (NAME or NAME#K) and the step overlay"));
    m_rangeEdit->setMaximumWidth(170);
    bar->addWidget(m_rangeEdit);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(QStringLiteral("Show"), this));
    m_viewCombo = new QComboBox(this);
    m_viewCombo->setObjectName(QStringLiteral("viewCombo"));
    m_viewCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_viewCombo->addItem(QStringLiteral("All reports"));
    bar->addWidget(m_viewCombo);
    bar->addSpacing(8);
    // Zoom without a wheel or the keys (Ctrl+wheel, W/S, +/-, F).
    const struct
    {
        const char *name, *text, *tip;
        double factor; // 0 = fit
    } zooms[] = {{"zoomOutButton", "\u2212", "Zoom out (S, -, Ctrl+wheel)", 1 / 1.25},
                 {"zoomInButton", "+", "Zoom in (W, +, Ctrl+wheel)", 1.25},
                 {"fitButton", "Fit", "Show everything (F with nothing selected)", 0}};
    for (const auto &z : zooms) {
        auto *b = new QToolButton(this);
        b->setObjectName(QLatin1String(z.name));
        b->setText(QString::fromUtf8(z.text));
        b->setToolTip(QLatin1String(z.tip));
        bar->addWidget(b);
        const double factor = z.factor;
        connect(b, &QToolButton::clicked, this, [this, factor] {
            if (factor == 0)
                emit fitRequested();
            else
                emit zoomRequested(factor);
        });
    }
    bar->addStretch(1);
    m_search = new TimelineSearchBar(this);
    bar->addWidget(m_search);

    connect(m_alignCombo, &QComboBox::activated, this, [this] {
        const QString mode = m_alignCombo->currentData().toString();
        if (mode != QLatin1String("range")) {
            emit alignmentRequested(mode);
        } else if (rangeName().isEmpty()) {
            m_rangeEdit->setFocus();
            emit statusMessage(QStringLiteral("Type the NVTX range to align on, then press Enter"), 5000);
        } else {
            emit alignmentRequested(QStringLiteral("range:") + rangeName());
        }
    });
    connect(m_rangeEdit, &QLineEdit::returnPressed, this, [this] {
        if (m_alignCombo->currentData().toString() == QLatin1String("range"))
            emit alignmentRequested(QStringLiteral("range:") + rangeName());
        emit rangeEntered(rangeName());
    });
    connect(m_viewCombo, &QComboBox::activated, this, &TimelineToolbar::viewRequested);
}

void TimelineToolbar::showAlignment(const QString &spec)
{
    const bool onRange = spec.startsWith(QLatin1String("range:"));
    m_alignCombo->setCurrentIndex(std::max(0, m_alignCombo->findData(onRange ? QStringLiteral("range") : spec)));
    if (onRange)
        m_rangeEdit->setText(spec.mid(6));
}

void TimelineToolbar::setRankChoices(const QStringList &ranks, int current)
{
    m_viewCombo->clear();
    m_viewCombo->addItem(QStringLiteral("All reports"));
    for (const QString &r : ranks)
        m_viewCombo->addItem(QStringLiteral("Steps of %1").arg(r));
    m_viewCombo->setCurrentIndex(current);
}

QString TimelineToolbar::rangeName() const
{
    return m_rangeEdit->text().trimmed();
}

void TimelineToolbar::setRangeName(const QString &name)
{
    m_rangeEdit->setText(name);
}

} // namespace ps::views
