#pragma once
// The schedule helper for the PyTorch and torch_npu profilers (seeds 002 and 004): edit wait /
// warmup / active / repeat / skip_first directly or from "record steps A to B", see which steps
// are skipped, warmed up and recorded, and copy the torch.profiler.schedule(...) /
// torch_npu.profiler.schedule(...) call and the tensorboard_trace_handler line to paste into the
// training or inference loop. It edits no config key: these schedules live in code.

#include "core/configedit/profilerschedule.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace ps::views {

class ScheduleStrip;

class ScheduleHelper : public QWidget
{
    Q_OBJECT
public:
    explicit ScheduleHelper(QWidget *parent = nullptr);

    core::configedit::ProfilerSchedule schedule() const;
    void setSchedule(const core::configedit::ProfilerSchedule &s);
    // "torch" or "torch_npu"
    void setApi(core::configedit::ScheduleApi api);
    void setOutputDir(const QString &dir);
    // Fills the schedule from the "record steps [first, end)" fields.
    void applyRange();
    QString code() const;

    QSpinBox *wait() const { return m_wait; }
    QSpinBox *warmup() const { return m_warmup; }
    QSpinBox *active() const { return m_active; }
    QSpinBox *repeat() const { return m_repeat; }
    QSpinBox *skipFirst() const { return m_skip; }
    QSpinBox *rangeFirst() const { return m_first; }
    QSpinBox *rangeEnd() const { return m_end; }

private:
    void update();
    QPushButton *addOutputs(QVBoxLayout *layout);

    QComboBox *m_api;
    QSpinBox *m_wait, *m_warmup, *m_active, *m_repeat, *m_skip, *m_first, *m_end;
    QLineEdit *m_dir;
    ScheduleStrip *m_strip;
    QLabel *m_summary;
    QPlainTextEdit *m_code;
};

} // namespace ps::views
