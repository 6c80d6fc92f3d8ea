#pragma once
// QCustomPlot ticker for the shared time axis: axis coordinates are ns relative to the aligned
// origin; ticks fall on 1-2-5 steps and are labelled in adaptive units (timeformat.h), the same
// steps the canvas draws its grid lines at.

#include <qcustomplot.h>

#include <optional>

namespace ps::views {

class TimeAxisTicker : public QCPAxisTicker
{
public:
    // Pixel width of the axis, so ticks keep a readable spacing at any window size.
    void setPixelWidth(double width) { m_width = width; }
    double pixelWidth() const { return m_width; }
    // Average width of a label character, so that long labels get fewer ticks.
    void setCharWidth(double width) { m_charWidth = width; }
    // The UTC ns of axis 0: labels are wall-clock dates (nullopt: relative times).
    void setWallClockOrigin(std::optional<int64_t> origin) { m_origin = origin; }

    void generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision, QVector<double> &ticks,
                  QVector<double> *subTicks, QVector<QString> *tickLabels) override;

private:
    double m_width = 1000;
    double m_charWidth = 7;
    std::optional<int64_t> m_origin;
};

} // namespace ps::views
