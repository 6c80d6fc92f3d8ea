#pragma once
// A strip of profiler steps coloured by what torch.profiler.schedule does in each: skipped
// (skip_first), waiting, warming up, recorded. Paints from phaseAt(), so it cannot disagree with
// the generated schedule call.

#include "views/config/profilerschedule.h"

#include <QWidget>

namespace ps::views {

class ScheduleStrip : public QWidget
{
    Q_OBJECT
public:
    explicit ScheduleStrip(QWidget *parent = nullptr);
    void setSchedule(const ProfilerSchedule &s);
    QSize sizeHint() const override { return {600, 54}; }

protected:
    void paintEvent(QPaintEvent *) override;

private:
    ProfilerSchedule m_schedule;
};

QColor phaseColor(StepPhase p);
const char *phaseName(StepPhase p);

} // namespace ps::views
