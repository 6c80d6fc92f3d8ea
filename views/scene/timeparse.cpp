#include "views/scene/timeparse.h"

#include <QRegularExpression>

#include <cmath>

namespace ps::views {

std::optional<int64_t> parseTimeValue(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(-?\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s)?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QString unit = m.captured(2);
    const double scale = unit == QLatin1String("s")                                      ? 1e9
                         : unit == QLatin1String("ms")                                   ? 1e6
                         : (unit == QLatin1String("us") || unit == QStringLiteral("µs")) ? 1e3
                                                                                         : 1.0;
    if (scale == 1.0 && m.captured(1).contains(QLatin1Char('.')))
        return std::nullopt; // fractional nanoseconds
    if (scale == 1.0)
        return m.captured(1).toLongLong();
    return int64_t(std::llround(m.captured(1).toDouble() * scale));
}

std::optional<std::pair<int64_t, int64_t>> parseTimeRange(const QString &text)
{
    // The separator is the colon that is not part of a number (values may be negative).
    const int colon = text.indexOf(QLatin1Char(':'));
    if (colon < 0)
        return std::nullopt;
    const auto a = parseTimeValue(text.left(colon)), b = parseTimeValue(text.mid(colon + 1));
    if (!a || !b || *a >= *b)
        return std::nullopt;
    return std::make_pair(*a, *b);
}

} // namespace ps::views
