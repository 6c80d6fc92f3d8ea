#include "views/overview/clusteroverview.h"

#include "views/overview/overviewstrip.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ps::views {

ClusterOverview::ClusterOverview(QWidget *parent) : BackgroundPane(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 2);
    layout->setSpacing(2);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 0, 6, 0);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("overviewSummary"));
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    m_summary->setToolTip(QStringLiteral("Each row is a rank, in the timeline's order; with more ranks than pixel rows "
                                         "a row folds several and shows the least busy of them. Click a row or "
                                         "cell to open that rank at that time."));
    m_mode = new QComboBox(this);
    m_mode->addItem(QStringLiteral("GPU utilization"));
    m_mode->addItem(QStringLiteral("RL phase"));
    m_mode->setToolTip(QStringLiteral("What the cells' colour shows"));
    m_goTo = new QPushButton(QStringLiteral("Go to Rank…"), this);
    m_goTo->setToolTip(QStringLiteral("Open a rank in the timeline by group:rank, pid or host (Ctrl+G)"));
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_mode);
    bar->addWidget(m_goTo);
    layout->addLayout(bar);
    m_strip = new OverviewStrip(this);
    layout->addWidget(m_strip, 1);
    connect(m_strip, &OverviewStrip::activated, this, &ClusterOverview::entryActivated);
    connect(m_goTo, &QPushButton::clicked, this, &ClusterOverview::goToRankRequested);
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_strip->setMode(i == 1 ? OverviewStrip::Mode::Phase : OverviewStrip::Mode::Utilization);
        updateSummary();
    });
    m_job = addJob<OverviewData>([this](OverviewData d) {
        m_strip->setData(std::move(d));
        updateSummary();
    });
}

void ClusterOverview::setScene(std::shared_ptr<const TimelineScene> scene)
{
    if (scene == m_scene)
        return;
    // A report paged in or out is the same report: the busy shares and phases stay.
    std::vector<std::pair<std::string, int64_t>> signature;
    if (scene)
        for (const TimelineEntry &e : scene->entries)
            signature.emplace_back(e.report->report().path, e.offset);
    m_scene = std::move(scene);
    if (signature == m_signature && !signature.empty())
        return;
    m_signature = std::move(signature);
    m_strip->setPhases({});
    if (!m_scene || m_scene->entries.empty()) {
        m_job->cancel();
        m_strip->setData({});
        updateSummary();
        return;
    }
    m_summary->setText(QStringLiteral("Reading the GPU busy time of %1 reports…").arg(m_scene->entries.size()));
    m_job->run([scene = m_scene](const CancelToken &cancel) { return computeOverview(*scene, kBins, &cancel); });
}

void ClusterOverview::setPhases(OverviewPhases phases)
{
    m_strip->setPhases(std::move(phases));
    updateSummary();
}

void ClusterOverview::setWindow(TimeWindow window)
{
    m_strip->setWindow(window);
}

void ClusterOverview::setLabelWidth(int width)
{
    m_strip->setLabelWidth(width);
}

// "1024 ranks · dark = idle GPU · straggler ActorGroup:7 (6 of 8 phase rows) · outliers: …".
void ClusterOverview::updateSummary()
{
    const OverviewData &d = m_strip->data();
    if (d.isEmpty()) {
        m_summary->setText(QString());
        return;
    }
    QStringList parts{QStringLiteral("<b>%1 reports</b>").arg(d.rows.size())};
    const OverviewPhases &ph = m_strip->phases();
    if (ph.stragglerEntry >= 0 && m_scene && size_t(ph.stragglerEntry) < m_scene->entries.size())
        parts << (ph.provisional
                      ? QStringLiteral("<span style='color:#757575'>provisional straggler %1</span> (slowest "
                                       "in %2 phase row(s) of the reports read so far)")
                      : QStringLiteral("<span style='color:#d32f2f'>straggler %1</span> (slowest in %2 "
                                       "phase row(s))"))
                     .arg(m_scene->entries[size_t(ph.stragglerEntry)].label.toHtmlEscaped())
                     .arg(ph.stragglerRows);
    if (!d.outliers.empty()) {
        QStringList names;
        for (size_t i = 0; i < d.outliers.size() && i < 3; ++i)
            names << d.rows[size_t(d.outliers[i])].label.toHtmlEscaped();
        if (d.outliers.size() > 3)
            names << QStringLiteral("%1 more").arg(d.outliers.size() - 3);
        parts << QStringLiteral("<span style='color:#f57c00'>GPU-busy outliers: %1</span>").arg(names.join(", "));
    }
    parts << (m_strip->mode() == OverviewStrip::Mode::Utilization
                  ? QStringLiteral("dark = idle GPU, yellow = busy")
                  : QStringLiteral("by RL phase: %1").arg(m_strip->phases().names.join(QStringLiteral(", "))));
    m_summary->setText(parts.join(QStringLiteral(" · ")));
}

} // namespace ps::views
