#include "core/analysis/collectives/collectivesink.h"

#include <algorithm>

namespace ps::core::analysis::detail {

bool selectedBy(const CollectiveQuery &query, const MatchedInstance &inst)
{
    return !query.select || query.select(inst.communicator->name, inst.input->ops[inst.op]);
}

void selectIn(const CollectiveQuery &query, const InstanceBlock &b, std::vector<uint8_t> &selected)
{
    selected.assign(b.handled.begin(), b.handled.begin() + std::ptrdiff_t(b.count));
    if (!query.select)
        return;
    std::vector<int8_t> byOp(b.input->ops.size(), -1); // the filter asked once per op
    for (size_t k = 0; k < b.count; ++k) {
        if (!selected[k])
            continue;
        int8_t &ok = byOp[b.op(k)];
        if (ok < 0)
            ok = query.select(b.communicator->name, b.input->ops[b.op(k)]) ? 1 : 0;
        selected[k] = uint8_t(ok);
    }
}

CollectiveInstance makeInstance(const InstanceBlock &b, size_t k)
{
    CollectiveInstance inst;
    inst.group = b.communicator->name;
    inst.groupDesc = b.communicator->desc;
    inst.op = b.input->ops[b.op(k)];
    inst.index = b.index[k];
    inst.method = b.method;
    inst.groupSize = b.communicator->members ? int(b.communicator->members->size()) : b.communicator->size;
    inst.members.reserve(b.ranks.size());
    for (size_t m = 0; m < b.ranks.size(); ++m) {
        const size_t i = b.at(m, k);
        inst.members.push_back(
            {b.ranks[m], b.reports[m], b.eventAt(m, k), b.start[i], b.end[i], b.wait[i], b.recordAt(m, k)});
    }
    inst.complete = true;
    inst.lastRank = b.ranks[b.lastMember[k]];
    inst.skewNs = b.skew[k];
    inst.transferNs = b.transfer[k];
    if (b.bytes[k] != Observed::kNoBytes)
        inst.bytes = b.bytes[k];
    if (b.algbw[k] >= 0)
        inst.algbwGBps = b.algbw[k];
    if (b.busbw[k] >= 0)
        inst.busbwGBps = b.busbw[k];
    return inst;
}

CollectiveInstance makeInstance(const MatchedInstance &m)
{
    CollectiveInstance inst;
    inst.group = m.communicator->name;
    inst.groupDesc = m.communicator->desc;
    inst.op = m.input->ops[m.op];
    inst.index = m.index;
    inst.method = m.method;
    inst.groupSize = m.groupSize();
    inst.members.reserve(m.members.size());
    for (const Arrival &a : m.members)
        inst.members.push_back({a.rank, a.report, a.o.event, a.o.start, a.o.end, m.waitOf(a), a.o.record});
    inst.problem = m.problem;
    inst.complete = m.complete();
    inst.lastRank = m.lastRank;
    inst.skewNs = m.skewNs;
    inst.transferNs = m.transferNs;
    inst.bytes = m.bytes;
    inst.algbwGBps = m.algbwGBps;
    inst.busbwGBps = m.busbwGBps;
    return inst;
}

} // namespace ps::core::analysis::detail
