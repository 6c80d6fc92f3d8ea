#pragma once
// The timeline canvas's mouse and keyboard controls, as Help > Keyboard Shortcuts lists them.
// Kept beside the canvas so that a new key gets its line here in the same change.

#include <QList>
#include <QString>

namespace ps::views {

struct KeyHelp
{
    QString keys;
    QString action;
};

QList<KeyHelp> timelineKeyHelp();

} // namespace ps::views
