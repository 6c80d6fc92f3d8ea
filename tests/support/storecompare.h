#pragma once
// Two EventStores hold the same events: names, tracks and every column byte for byte (a store
// rebuilt from the report cache or from a digest against the one read from the report).

#include "core/trace/store/eventstore.h"

#include <QtTest>

#include <cstring>
#include <span>

namespace ps::test {

template <typename T> bool sameBytes(std::span<const T> a, std::span<const T> b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

inline void compareStores(const ps::core::trace::EventStore &a, const ps::core::trace::EventStore &b)
{
    QCOMPARE(a.eventCount(), b.eventCount());
    QCOMPARE(a.names().size(), b.names().size());
    for (ps::core::trace::NameId i = 0; i < a.names().size(); ++i)
        QCOMPARE(a.name(i), b.name(i));
    QCOMPARE(a.tracks().size(), b.tracks().size());
    for (size_t t = 0; t < a.tracks().size(); ++t) {
        const ps::core::trace::Track &x = a.tracks()[t], &y = b.tracks()[t];
        QVERIFY(x.key() == y.key());
        QCOMPARE(x.label(), y.label());
        QCOMPARE(x.levelCount(), y.levelCount());
        QVERIFY(sameBytes(x.columns().start, y.columns().start));
        QVERIFY(sameBytes(x.columns().duration, y.columns().duration));
        QVERIFY(sameBytes(x.columns().name, y.columns().name));
        QVERIFY(sameBytes(x.columns().aux, y.columns().aux));
        QVERIFY(sameBytes(x.columns().level, y.columns().level));
        QVERIFY(sameBytes(x.columns().attr, y.columns().attr));
        QVERIFY(sameBytes(x.columns().bytes, y.columns().bytes));
        QVERIFY(sameBytes(x.columns().blockMaxEnd, y.columns().blockMaxEnd));
    }
    QCOMPARE(a.launchConfigs().size(), b.launchConfigs().size());
    QCOMPARE(a.nvtxScopes().size(), b.nvtxScopes().size());
    QCOMPARE(a.threads().size(), b.threads().size());
    QCOMPARE(a.processes().size(), b.processes().size());
}

} // namespace ps::test
