#include "views/config/schedulestrip.h"

#include <QPainter>

#include <algorithm>

namespace ps::views {

using namespace core::configedit;

QColor phaseColor(StepPhase p)
{
    switch (p) {
    case StepPhase::SkipFirst:
        return QColor(0xb0, 0xb0, 0xb0);
    case StepPhase::Wait:
        return QColor(0xe0, 0xe0, 0xe0);
    case StepPhase::Warmup:
        return QColor(0xf5, 0xb9, 0x42);
    case StepPhase::Record:
        return QColor(0x3a, 0x9a, 0x4a);
    case StepPhase::Done:
        return QColor(0xf4, 0xf4, 0xf4);
    }
    return Qt::white;
}

const char *phaseName(StepPhase p)
{
    switch (p) {
    case StepPhase::SkipFirst:
        return "skipped (skip_first)";
    case StepPhase::Wait:
        return "wait";
    case StepPhase::Warmup:
        return "warm-up";
    case StepPhase::Record:
        return "recorded";
    case StepPhase::Done:
        return "after the last cycle";
    }
    return "";
}

ScheduleStrip::ScheduleStrip(QWidget *parent) : QWidget(parent)
{
    setMinimumHeight(54);
}

void ScheduleStrip::setSchedule(const ProfilerSchedule &s)
{
    m_schedule = s;
    update();
}

void ScheduleStrip::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const ProfilerSchedule &s = m_schedule;
    const long long cycle = std::max<long long>(1, s.wait + s.warmup + s.active);
    // Show skip_first, the cycles (at most 3 when repeating forever) and a few steps after.
    const long long cycles = s.repeat > 0 ? s.repeat : 3;
    const long long steps = std::clamp<long long>(s.skipFirst + cycles * cycle + 4, 8, 400);
    const int barTop = 4, barHeight = height() - 22;
    const double w = double(width() - 2) / double(steps);
    for (long long i = 0; i < steps; ++i) {
        const QRectF r(1 + i * w, barTop, std::max(1.0, w - (w > 4 ? 1 : 0)), barHeight);
        p.fillRect(r, phaseColor(phaseAt(s, i)));
    }
    p.setPen(palette().color(QPalette::WindowText));
    const long long tick = std::max<long long>(1, steps / 10);
    for (long long i = 0; i < steps; i += tick)
        p.drawText(QPointF(1 + i * w, height() - 4), QString::number(i));
}

} // namespace ps::views
