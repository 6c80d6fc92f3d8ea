#pragma once
// StoreBuilder::track() for readers whose rows come in runs of one track: the handle is looked
// up only when the key changes, which saves a hash lookup per event.

#include "core/trace/store/storebuilder.h"

namespace ps::core::trace {

class TrackLookup
{
public:
    explicit TrackLookup(StoreBuilder &b) : m_b(b) {}

    TrackHandle operator()(const TrackKey &k)
    {
        if (!m_haveLast || !(k == m_lastKey)) {
            m_lastHandle = m_b.track(k);
            m_lastKey = k;
            m_haveLast = true;
        }
        return m_lastHandle;
    }
    // Forget the last key (the next call looks up afresh).
    void reset() { m_haveLast = false; }

private:
    StoreBuilder &m_b;
    TrackKey m_lastKey{};
    TrackHandle m_lastHandle = 0;
    bool m_haveLast = false;
};

} // namespace ps::core::trace
