#pragma once
// A strip of profiler steps coloured by what torch.profiler.schedule does in each: skipped
// (skip_first), waiting, warming up, recorded. Paints from phaseAt(), so it cannot disagree with
// the generated schedule call.

#include "core/configedit/profilerschedule.h"

#include <QWidget>

namespace ps::views {

class ScheduleStrip : public QWidget
{
    Q_OBJECT
public:
    explicit ScheduleStrip(QWidget *parent = nullptr);
    void setSchedule(const core::configedit::ProfilerSchedule &s);
    QSize sizeHint() const override { return {600, 54}; }
    QSize minimumSizeHint() const override { return {200, 54}; }

protected:
    void paintEvent(QPaintEvent *) override;

private:
    core::configedit::ProfilerSchedule m_schedule;
};

QColor phaseColor(core::configedit::StepPhase p);
const char *phaseName(core::configedit::StepPhase p);

} // namespace ps::views
