#pragma once
// QCustomPlot ticker for the shared time axis: axis coordinates are ns relative to the aligned
// origin; ticks fall on 1-2-5 steps and are labelled in adaptive units (timeformat.h), the same
// steps the canvas draws its grid lines at.

#include <qcustomplot.h>

namespace ps::views {

class TimeAxisTicker : public QCPAxisTicker
{
public:
    // Pixel width of the axis, so ticks keep a readable spacing at any window size.
    void setPixelWidth(double width) { m_width = width; }
    double pixelWidth() const { return m_width; }
    // Average width of a label character, so that long labels get fewer ticks.
    void setCharWidth(double width) { m_charWidth = width; }

    void generate(const QCPRange &range, const QLocale &locale, QChar formatChar, int precision, QVector<double> &ticks,
                  QVector<double> *subTicks, QVector<QString> *tickLabels) override;

private:
    double m_width = 1000;
    double m_charWidth = 7;
};

} // namespace ps::views
