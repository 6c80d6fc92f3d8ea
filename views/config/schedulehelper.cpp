#include "views/config/schedulehelper.h"

#include "views/config/schedulestrip.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ps::views {

using namespace core::configedit;

namespace {
void quietlySet(QSpinBox *box, long long v)
{
    const bool was = box->blockSignals(true);
    box->setValue(int(v));
    box->blockSignals(was);
}

QSpinBox *spin(QWidget *parent, const char *name, int min, int value, const QString &tip)
{
    auto *s = new QSpinBox(parent);
    s->setObjectName(name);
    s->setRange(min, 1000000);
    s->setValue(value);
    s->setToolTip(tip);
    s->setMinimumWidth(70);
    s->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed); // not as wide as 1000000 needs
    return s;
}
} // namespace

ScheduleHelper::ScheduleHelper(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *intro = new QLabel("For torch.profiler / torch_npu.profiler used in your own loop: each prof.step() "
                             "advances one step (0-based).",
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *form = new QFormLayout;
    m_api = new QComboBox(this);
    m_api->setObjectName("scheduleApi");
    m_api->addItem("torch.profiler (PyTorch)");
    m_api->addItem("torch_npu.profiler (Ascend)");
    form->addRow("Profiler", m_api);

    // Two short rows rather than one long one: the tab fits a laptop-width panel unclipped.
    auto *rangeRow = new QGridLayout;
    m_first = spin(this, "rangeFirst", 0, 30, "First step to record (0-based prof.step() count)");
    m_end = spin(this, "rangeEnd", 1, 60, "Stop recording before this step (exclusive)");
    auto *fill = new QPushButton("Fill schedule", this);
    fill->setObjectName("fillSchedule");
    rangeRow->addWidget(new QLabel("record steps", this), 0, 0);
    rangeRow->addWidget(m_first, 0, 1);
    rangeRow->addWidget(new QLabel("up to (not incl.)", this), 0, 2);
    rangeRow->addWidget(m_end, 0, 3);
    rangeRow->addWidget(fill, 1, 0, 1, 4, Qt::AlignLeft);
    form->addRow("From a range", rangeRow);

    m_skip = spin(this, "skipFirst", 0, 0,
                  "skip_first: steps ignored before the first cycle (dynamic-shape "
                  "workloads: skip about 10)");
    m_wait = spin(this, "wait", 0, 1, "wait: idle steps at the start of every cycle");
    m_warmup = spin(this, "warmup", 0, 1,
                    "warmup: steps traced but discarded before recording (1 recommended; 0 "
                    "skews the first recorded step)");
    m_active = spin(this, "active", 1, 3,
                    "active: steps recorded per cycle; the trace is saved at the end of each "
                    "cycle");
    m_repeat = spin(this, "repeat", 0, 1,
                    "repeat: number of wait+warmup+active cycles (0 = until the profiler "
                    "stops)");
    auto *params = new QGridLayout;
    int i = 0;
    for (auto [label, box] : {std::pair{"skip_first", m_skip}, std::pair{"wait", m_wait}, std::pair{"warmup", m_warmup},
                              std::pair{"active", m_active}, std::pair{"repeat", m_repeat}}) {
        params->addWidget(new QLabel(label, this), i / 3, 2 * (i % 3));
        params->addWidget(box, i / 3, 2 * (i % 3) + 1);
        ++i;
    }
    form->addRow("Schedule", params);
    m_dir = new QLineEdit("./profiler_logs", this);
    m_dir->setObjectName("traceDir");
    m_dir->setToolTip("Folder passed to tensorboard_trace_handler");
    form->addRow("Trace folder", m_dir);
    layout->addLayout(form);

    QPushButton *copy = addOutputs(layout);

    for (QSpinBox *s : {m_wait, m_warmup, m_active, m_repeat, m_skip})
        connect(s, &QSpinBox::valueChanged, this, &ScheduleHelper::update);
    connect(m_api, &QComboBox::currentIndexChanged, this, &ScheduleHelper::update);
    connect(m_dir, &QLineEdit::textChanged, this, &ScheduleHelper::update);
    connect(fill, &QPushButton::clicked, this, &ScheduleHelper::applyRange);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(code()); });
    update();
}

// Under the form: the phase strip with its legend, the summary and the generated code.
QPushButton *ScheduleHelper::addOutputs(QVBoxLayout *layout)
{
    m_strip = new ScheduleStrip(this);
    layout->addWidget(m_strip);
    auto *legend = new QLabel(this);
    QString l;
    for (StepPhase p : {StepPhase::SkipFirst, StepPhase::Wait, StepPhase::Warmup, StepPhase::Record})
        l += QString("<span style='background:%1'>&nbsp;&nbsp;&nbsp;</span> %2 &nbsp; ")
                 .arg(phaseColor(p).name(), phaseName(p));
    legend->setText(l);
    layout->addWidget(legend);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setObjectName("scheduleSummary");
    layout->addWidget(m_summary);
    m_code = new QPlainTextEdit(this);
    m_code->setObjectName("scheduleCode");
    m_code->setReadOnly(true);
    m_code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_code->setMaximumHeight(90);
    layout->addWidget(m_code);
    auto *copy = new QPushButton("Copy code", this);
    layout->addWidget(copy, 0, Qt::AlignLeft);
    return copy;
}

ProfilerSchedule ScheduleHelper::schedule() const
{
    return {m_wait->value(), m_warmup->value(), m_active->value(), m_repeat->value(), m_skip->value()};
}

void ScheduleHelper::setSchedule(const ProfilerSchedule &s)
{
    for (auto [box, v] : {std::pair{m_wait, s.wait}, std::pair{m_warmup, s.warmup}, std::pair{m_active, s.active},
                          std::pair{m_repeat, s.repeat}, std::pair{m_skip, s.skipFirst}})
        quietlySet(box, v);
    update();
}

void ScheduleHelper::setApi(ScheduleApi api)
{
    m_api->setCurrentIndex(api == ScheduleApi::Torch ? 0 : 1);
}

void ScheduleHelper::setOutputDir(const QString &dir)
{
    m_dir->setText(dir);
}

void ScheduleHelper::applyRange()
{
    const ScheduleForRange r = scheduleForRange(m_first->value(), m_end->value(), m_warmup->value(), m_skip->value());
    if (!r.error.empty()) {
        m_summary->setText("<span style='color:#b00020'>" + QString::fromStdString(r.error).toHtmlEscaped() +
                           "</span>");
        return;
    }
    setSchedule(r.schedule);
}

QString ScheduleHelper::code() const
{
    return m_code->toPlainText();
}

void ScheduleHelper::update()
{
    const ProfilerSchedule s = schedule();
    const ScheduleApi api = m_api->currentIndex() == 0 ? ScheduleApi::Torch : ScheduleApi::TorchNpu;
    m_strip->setSchedule(s);
    const std::string dir = m_dir->text().toStdString();
    QString c =
        QString("schedule=%1,\non_trace_ready=%2,")
            .arg(QString::fromStdString(scheduleCall(s, api)), QString::fromStdString(traceHandlerCall(api, dir)));
    m_code->setPlainText(c);

    QString text;
    const long long first = s.skipFirst + s.wait + s.warmup;
    if (s.repeat > 0)
        text = QString("Records steps %1–%2").arg(first).arg(first + s.active - 1);
    else
        text = QString("Records steps %1–%2, then every %3 steps")
                   .arg(first)
                   .arg(first + s.active - 1)
                   .arg(s.wait + s.warmup + s.active);
    if (s.repeat > 1)
        text += QString(" and %1 more cycle(s) of %2 steps").arg(s.repeat - 1).arg(s.wait + s.warmup + s.active);
    text += QString(". Each cycle writes %1").arg(QString::fromStdString(traceHandlerOutput(api, dir)));
    for (const std::string &p : scheduleProblems(s))
        text += "<br><span style='color:#b06000'>" + QString::fromStdString(p).toHtmlEscaped() + "</span>";
    m_summary->setText(text);
}

} // namespace ps::views
