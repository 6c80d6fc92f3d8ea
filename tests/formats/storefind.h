#pragma once
// Looking events up in an EventStore by kind, name and start, for the reader tests.

#include "core/trace/store/eventstore.h"

#include <QString>

#include <optional>

namespace storefind {

// The first event of `kind` named `name` that starts at `start` (within `slack` ns).
inline std::optional<ps::core::trace::EventRef> find(const ps::core::trace::EventStore &s,
                                                     ps::core::trace::TrackKind kind, const QString &name,
                                                     int64_t start, int64_t slack = 0)
{
    const std::string n = name.toStdString();
    for (uint32_t ti : s.tracksOfKind(kind)) {
        const auto &t = s.track(ti);
        for (size_t i = 0; i < t.size(); ++i)
            if (std::llabs(t.start(i) - start) <= slack && s.name(t.name(i)) == n)
                return ps::core::trace::EventRef{ti, uint32_t(i)};
    }
    return std::nullopt;
}

inline int64_t duration(const ps::core::trace::EventStore &s, ps::core::trace::EventRef e)
{
    return s.track(e.track).duration(e.index);
}

inline QString nameOf(const ps::core::trace::EventStore &s, ps::core::trace::EventRef e)
{
    return QString::fromStdString(std::string(s.name(s.track(e.track).name(e.index))));
}

} // namespace storefind
