#include "views/overview/overviewstrip.h"

#include "views/common/namecolors.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ps::views {

namespace {

constexpr QRgb kNoData = 0xfff4f4f4;
constexpr QRgb kStraggler = 0xffd32f2f;
constexpr QRgb kProvisional = 0xff757575; // a straggler named while reports still load
constexpr QRgb kOutlier = 0xfff57c00;
constexpr int kMarkWidth = 6; // the marks' strip at the label column's right edge

QString percent(double share)
{
    return QString::number(100.0 * share, 'f', 0) + QStringLiteral(" %");
}

} // namespace

QRgb busyColor(float share)
{
    // Viridis at five stops: reads as a ramp in grey too, and idle (dark) stands out of busy.
    static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x90, 0x8d),
                                   QColor(0x5d, 0xc8, 0x63), QColor(0xfd, 0xe7, 0x25)};
    const float s = std::clamp(share, 0.f, 1.f) * 4.f;
    const int i = std::min(3, int(s));
    const float f = s - float(i);
    const QColor &a = stops[i], &b = stops[i + 1];
    return qRgb(int(float(a.red()) + (float(b.red()) - float(a.red())) * f),
                int(float(a.green()) + (float(b.green()) - float(a.green())) * f),
                int(float(a.blue()) + (float(b.blue()) - float(a.blue())) * f));
}

OverviewStrip::OverviewStrip(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumHeight(60);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void OverviewStrip::setData(OverviewData data)
{
    m_data = std::move(data);
    setPhases(std::move(m_phases)); // re-index the spans by row
}

void OverviewStrip::setPhases(OverviewPhases phases)
{
    m_phases = std::move(phases);
    m_phasesByRow.assign(m_data.rows.size(), {});
    m_stragglerRow = -1;
    for (size_t r = 0; r < m_data.rows.size(); ++r)
        if (m_data.rows[r].entry == m_phases.stragglerEntry)
            m_stragglerRow = int(r);
    for (const OverviewPhase &s : m_phases.spans)
        for (size_t r = 0; r < m_data.rows.size(); ++r)
            if (m_data.rows[r].entry == s.entry) {
                m_phasesByRow[r].push_back(&s);
                break;
            }
    rebuildImage();
}

void OverviewStrip::setMode(Mode mode)
{
    m_mode = mode;
    rebuildImage();
}

void OverviewStrip::setWindow(TimeWindow window)
{
    m_window = window;
    update();
}

void OverviewStrip::setLabelWidth(int width)
{
    if (width == m_labelWidth)
        return;
    m_labelWidth = width;
    rebuildImage();
}

QRect OverviewStrip::heatRect() const
{
    return QRect(m_labelWidth, 0, std::max(1, width() - m_labelWidth - m_rightMargin), std::max(1, height()));
}

TimeWindow OverviewStrip::axisWindow() const
{
    TimeWindow w = m_data.extent;
    if (m_window) {
        w.start = std::min(w.start, m_window->start);
        w.end = std::max(w.end, m_window->end);
    }
    w.end = std::max(w.end, w.start + 1);
    return w;
}

double OverviewStrip::xOf(int64_t sharedNs) const
{
    const QRect heat = heatRect();
    const TimeWindow axis = axisWindow();
    return heat.left() + double(sharedNs - axis.start) / double(axis.duration()) * heat.width();
}

void OverviewStrip::setRightMargin(int pixels)
{
    m_rightMargin = pixels;
    rebuildImage();
}

std::pair<int, int> OverviewStrip::rowsAtPixel(int y) const
{
    const int n = int(m_data.rows.size()), h = heatRect().height();
    if (n == 0 || y < 0 || y >= h)
        return {0, 0};
    if (n <= h) { // each row at least one pixel
        const int row = int(int64_t(y) * n / h);
        return {row, row + 1};
    }
    const int first = int(int64_t(y) * n / h), last = int(int64_t(y + 1) * n / h);
    return {first, std::max(first + 1, last)};
}

int OverviewStrip::pixelOfRow(int row) const
{
    const int n = std::max<int>(1, int(m_data.rows.size())), h = heatRect().height();
    return int((int64_t(row) * h + h / 2) / n);
}

QRgb OverviewStrip::stragglerColour() const
{
    return m_phases.provisional ? kProvisional : kStraggler;
}

bool OverviewStrip::isMarked(int entry) const
{
    if (entry == m_phases.stragglerEntry)
        return true;
    return std::any_of(m_data.outliers.begin(), m_data.outliers.end(),
                       [&](int r) { return m_data.rows[size_t(r)].entry == entry; });
}

// In a pixel row folding several ranks: the straggler, else the farthest outlier, else the least
// busy rank (what the row shows).
int OverviewStrip::preferredRow(int first, int last) const
{
    if (m_stragglerRow >= first && m_stragglerRow < last)
        return m_stragglerRow;
    for (int r : m_data.outliers)
        if (r >= first && r < last)
            return r;
    int best = first;
    for (int r = first; r < last; ++r)
        if (m_data.rows[size_t(r)].meanBusy >= 0 &&
            (m_data.rows[size_t(best)].meanBusy < 0 ||
             m_data.rows[size_t(r)].meanBusy < m_data.rows[size_t(best)].meanBusy))
            best = r;
    return best;
}

QRgb OverviewStrip::cellColor(int first, int last, int bin) const
{
    if (m_mode == Mode::Utilization) {
        float least = 2.f;
        for (int r = first; r < last; ++r)
            if (const float b = m_data.rows[size_t(r)].busy[size_t(bin)]; b >= 0)
                least = std::min(least, b);
        return least > 1.5f ? kNoData : busyColor(least);
    }
    const int row = preferredRow(first, last);
    const int64_t t = m_data.binStart(bin) + (m_data.binStart(bin + 1) - m_data.binStart(bin)) / 2;
    for (const OverviewPhase *s : m_phasesByRow[size_t(row)])
        if (t >= s->start && t < s->end)
            return colorForName(s->phase.toStdString()).rgb();
    return kNoData;
}

void OverviewStrip::rebuildImage()
{
    const QRect r = heatRect();
    m_image = QImage(r.size(), QImage::Format_RGB32);
    m_image.fill(kNoData);
    if (m_data.rows.empty() || m_data.bins <= 0) {
        update();
        return;
    }
    for (int y = 0; y < r.height(); ++y) {
        const auto [first, last] = rowsAtPixel(y);
        auto *line = reinterpret_cast<QRgb *>(m_image.scanLine(y));
        int lastBin = -1;
        QRgb color = kNoData;
        for (int x = 0; x < r.width(); ++x) {
            const int bin = int(int64_t(x) * m_data.bins / r.width());
            if (bin != lastBin)
                color = cellColor(first, last, bin);
            lastBin = bin;
            line[x] = color;
        }
    }
    update();
}

void OverviewStrip::resizeEvent(QResizeEvent *)
{
    rebuildImage();
}

void OverviewStrip::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QRect heat = heatRect();
    // The bins cover the run's extent; the axis is the timeline's whenever its window holds the
    // whole run (as after Fit), so both start and end at one x.
    const int left = int(std::lround(xOf(m_data.extent.start))), right = int(std::lround(xOf(m_data.extent.end)));
    p.drawImage(QRect(left, heat.top(), std::max(1, right - left), heat.height()), m_image);
    if (m_window && !m_data.rows.empty()) {
        const int x0 = std::max(heat.left(), int(xOf(m_window->start)));
        const int x1 = std::min(heat.right(), int(xOf(m_window->end)));
        if (x1 > x0 && (x0 > heat.left() || x1 < heat.right())) {
            p.setPen(QPen(Qt::white, 1, Qt::DashLine));
            p.drawRect(QRect(x0, heat.top(), x1 - x0, heat.height() - 1));
        }
    }
    paintLabels(p);
}

// Row labels where there is room; else only the marked rows', with the first and last row's.
void OverviewStrip::paintLabels(QPainter &p)
{
    const int n = int(m_data.rows.size());
    if (n == 0)
        return;
    const QFontMetrics fm(font());
    const int lineHeight = fm.height();
    const bool everyRow = heatRect().height() >= n * lineHeight;
    std::vector<std::pair<int, QRgb>> shown; // row, mark colour (0: none)
    for (int r : m_data.outliers)
        shown.push_back({r, kOutlier});
    if (m_stragglerRow >= 0)
        shown.insert(shown.begin(), std::make_pair(m_stragglerRow, stragglerColour()));
    for (const auto &[row, mark] : shown) { // marks first: they are never crowded out
        const int y = pixelOfRow(row);
        p.fillRect(QRect(m_labelWidth - kMarkWidth, y - 2, kMarkWidth, 5), QColor::fromRgb(mark));
        p.setPen(QColor::fromRgb(mark));
        p.drawLine(m_labelWidth, y, m_labelWidth + 8, y);
    }
    if (!everyRow) {
        shown.push_back({0, QRgb(0)});
        shown.push_back({n - 1, QRgb(0)});
    } else {
        shown.clear();
        for (int r = 0; r < n; ++r)
            shown.push_back({r, !isMarked(m_data.rows[size_t(r)].entry) ? QRgb(0)
                                : r == m_stragglerRow                   ? stragglerColour()
                                                                        : kOutlier});
    }
    std::vector<int> taken; // baselines used
    const int textRight = m_labelWidth - kMarkWidth - 4;
    for (const auto &[row, mark] : shown) {
        const int y = std::clamp(pixelOfRow(row), lineHeight / 2, height() - lineHeight / 2);
        if (std::any_of(taken.begin(), taken.end(), [&](int t) { return std::abs(t - y) < lineHeight; }))
            continue;
        taken.push_back(y);
        QString text = m_data.rows[size_t(row)].label;
        if (row == m_stragglerRow)
            text =
                (m_phases.provisional ? QStringLiteral("provisional straggler ") : QStringLiteral("straggler ")) + text;
        p.setPen(mark ? QColor::fromRgb(mark) : palette().color(QPalette::WindowText));
        p.drawText(QRect(2, y - lineHeight / 2, textRight - 2, lineHeight), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(text, Qt::ElideLeft, textRight - 2));
    }
}

std::optional<std::pair<int, int64_t>> OverviewStrip::targetAt(QPoint pos) const
{
    const QRect heat = heatRect();
    if (m_data.rows.empty() || pos.y() < heat.top() || pos.y() > heat.bottom())
        return std::nullopt;
    const auto [first, last] = rowsAtPixel(pos.y() - heat.top());
    if (last <= first)
        return std::nullopt;
    const int row = preferredRow(first, last);
    const TimeWindow axis = axisWindow();
    const double f = std::clamp(double(pos.x() - heat.left()) / std::max(1, heat.width()), 0.0, 1.0);
    return std::make_pair(m_data.rows[size_t(row)].entry, axis.start + int64_t(f * double(axis.duration())));
}

QPoint OverviewStrip::pointOf(int entry, int64_t sharedNs) const
{
    const QRect heat = heatRect();
    int row = 0;
    while (size_t(row) < m_data.rows.size() && m_data.rows[size_t(row)].entry != entry)
        ++row;
    return {int(std::lround(xOf(sharedNs))), heat.top() + pixelOfRow(row)};
}

void OverviewStrip::mousePressEvent(QMouseEvent *e)
{
    if (e->button() != Qt::LeftButton)
        return;
    if (const auto t = targetAt(e->position().toPoint()))
        emit activated(t->first, t->second);
}

QString OverviewStrip::toolTipAt(QPoint pos) const
{
    const auto target = targetAt(pos);
    if (!target)
        return {};
    const auto [first, last] = rowsAtPixel(pos.y() - heatRect().top());
    const int row = preferredRow(first, last);
    const OverviewRow &r = m_data.rows[size_t(row)];
    QStringList lines{r.label};
    if (row == m_stragglerRow)
        lines << QStringLiteral("straggler: slowest in %1 phase row(s)").arg(m_phases.stragglerRows);
    if (std::find(m_data.outliers.begin(), m_data.outliers.end(), row) != m_data.outliers.end())
        lines << QStringLiteral("outlier: GPU busy far from the median rank's");
    if (r.meanBusy >= 0)
        lines << QStringLiteral("GPU busy %1 over its span").arg(percent(r.meanBusy));
    if (last - first > 1)
        lines << QStringLiteral("this pixel row folds %1 ranks (%2 … %3) and shows the least busy")
                     .arg(last - first)
                     .arg(m_data.rows[size_t(first)].label, m_data.rows[size_t(last - 1)].label);
    lines << QStringLiteral("Click to open it in the timeline");
    return lines.join(QLatin1Char('\n'));
}

bool OverviewStrip::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(e);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(e);
}

} // namespace ps::views
