#include "views/config/stepseditor.h"

#include "views/config/configsession.h"
#include "views/config/intlistfield.h"

#include "core/config/keypath.h"

#include <QCheckBox>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace ps::views {

using namespace core::configedit;

using core::config::Node;

namespace {
Node listOf(const std::vector<long long> &values)
{
    Node l = Node::list();
    for (long long v : values)
        l.append(Node::integer(v));
    return l;
}
} // namespace

StepsEditor::StepsEditor(ConfigSession *session, std::string key, Numbering numbering, QWidget *parent)
    : ConfigPanel(session, parent), m_key(std::move(key)), m_numbering(numbering)
{
    const bool rlinf = numbering == Numbering::RLinfZeroBased;
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_only = new QCheckBox(rlinf ? "Only these steps (unchecked: every step)" : "Profile these steps", this);
    m_only->setObjectName("stepsOnly");
    m_only->setToolTip(rlinf ? "cluster.profiling.steps: null opens a profiling window around every step; a list "
                               "opens it only when global_step is in the list (and makes RLinf add "
                               "--capture-range=cudaProfilerApi --capture-range-end=stop to nsys)."
                             : "global_profiler.steps: null or [] profiles nothing; a list profiles those training "
                               "steps (controller under nsys only when the list is non-empty).");
    m_field = new IntListField(rlinf ? 0 : 1, this);
    m_field->setObjectName("steps");
    m_field->setPlaceholderText(rlinf ? "e.g. 3, 10, 50 or 2-4" : "e.g. 1, 2, 5 or 1-3");
    m_field->setToolTip(QString::fromStdString(m_key) +
                        (rlinf ? ": 0-based global_step values (the value before the step's increment; "
                                 "[3] is the 4th step of a fresh run)."
                               : ": 1-based training steps (verl starts from step 1)."));
    m_note = new QLabel(rlinf ? "RLinf counts steps from 0: step 0 is the first step of a fresh run."
                              : "verl counts steps from 1: step 1 is the first training step.",
                        this);
    m_note->setWordWrap(true);
    m_note->setStyleSheet("color: gray");
    layout->addWidget(m_only);
    layout->addWidget(m_field);
    layout->addWidget(m_note);
    bind(m_key, m_field);

    connect(m_field, &IntListField::committed, this, [this](const std::vector<long long> &v) {
        if (!m_only->isChecked())
            quietly(m_only, [](QCheckBox *c) { c->setChecked(true); });
        this->session()->setValue(m_key, listOf(v));
    });
    connect(m_only, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            this->session()->setValue(m_key, listOf({}));
        else if (const auto r = this->session()->result();
                 r && r->baseline && !core::config::findPath(r->baseline->config, m_key))
            this->session()->removeKey(m_key); // absent in the preset: drop the added key
        else
            this->session()->setValue(m_key, Node::null());
    });
}

void StepsEditor::refresh(const SessionResult &r)
{
    const Node *n = composedNode(r, m_key);
    const bool isList = n && n->isList();
    quietly(m_only, [&](QCheckBox *c) { c->setChecked(isList); });
    std::vector<long long> values;
    if (isList)
        for (const Node &item : n->items())
            if (item.kind() == Node::Kind::Int)
                values.push_back(item.asInt());
    std::sort(values.begin(), values.end());
    m_field->showValues(values);
}

} // namespace ps::views
