#pragma once
// Stable, legible colours per event name: the same name gets the same colour in every report and
// every session (a hash of the name, not an insertion order), with lightness chosen so that black
// text on it stays readable.

#include <QColor>
#include <string_view>

namespace ps::views {

QColor colorForName(std::string_view name);
// Black or white, whichever reads better on `background`.
QColor textColorOn(const QColor &background);

} // namespace ps::views
