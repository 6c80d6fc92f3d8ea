#include "views/common/emptystate.h"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ps::views {

EmptyState::EmptyState(const QString &title, const QString &text, QWidget *parent) : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->addStretch(2);
    auto *titleLabel = new QLabel(title, this);
    QFont f = titleLabel->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    titleLabel->setFont(f);
    titleLabel->setAlignment(Qt::AlignCenter);
    outer->addWidget(titleLabel);
    auto *body = new QLabel(text, this);
    body->setWordWrap(true);
    body->setAlignment(Qt::AlignCenter);
    body->setTextFormat(Qt::RichText);
    body->setMaximumWidth(640);
    // A word-wrapped label asks for a narrow column; the intro reads as a paragraph instead.
    body->setMinimumWidth(520);
    auto *row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(body);
    row->addStretch();
    outer->addLayout(row);
    m_buttons = new QVBoxLayout;
    auto *buttonRow = new QHBoxLayout;
    buttonRow->addStretch();
    buttonRow->addLayout(m_buttons);
    buttonRow->addStretch();
    outer->addSpacing(12);
    outer->addLayout(buttonRow);
    outer->addStretch(3);
}

void EmptyState::addAction(const QString &id, const QString &label)
{
    auto *b = new QPushButton(label, this);
    b->setObjectName(id);
    b->setMinimumWidth(260);
    connect(b, &QPushButton::clicked, this, [this, id] { emit triggered(id); });
    m_buttons->addWidget(b);
}

} // namespace ps::views
