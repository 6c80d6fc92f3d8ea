#include "core/trace/store/namedcollectives.h"

#include "core/trace/store/eventstore.h"

#include <memory>
#include <vector>

namespace ps::core::trace {

namespace {

const char kNamedKey = 0; // EventStore::derived

// One record per kernel known by its NCCL/RCCL name, in the store's order (track, then event),
// with its event's times; its op is the kernel's own name (the analysis classifies it).
std::vector<CollectiveRecord> namedCollectives(const EventStore &store)
{
    std::vector<CollectiveRecord> out;
    std::vector<int8_t> isCollective(store.names().size(), -1); // classified once per name
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
        const Track &t = store.track(ti);
        if (t.kind() != TrackKind::Kernel)
            continue;
        for (size_t i = 0; i < t.size(); ++i) {
            const NameId n = t.name(i);
            if (n >= isCollective.size())
                continue;
            if (isCollective[n] < 0)
                isCollective[n] = collectiveOpOfKernel(store.name(n)).empty() ? 0 : 1;
            if (isCollective[n] == 0)
                continue;
            CollectiveRecord r;
            r.event = {ti, uint32_t(i)};
            r.start = t.start(i);
            r.end = t.end(i);
            r.op = n;
            r.stream = t.key().id;
            r.source = CollectiveSource::KernelName;
            out.push_back(r);
        }
    }
    return out;
}

} // namespace

std::span<const CollectiveRecord> collectivesOf(const EventStore &store)
{
    if (!store.collectives().empty())
        return store.collectives();
    const auto kept = store.derived(&kNamedKey, [&store] {
        return std::static_pointer_cast<const void>(
            std::make_shared<const std::vector<CollectiveRecord>>(namedCollectives(store)));
    });
    return *std::static_pointer_cast<const std::vector<CollectiveRecord>>(kept);
}

} // namespace ps::core::trace
