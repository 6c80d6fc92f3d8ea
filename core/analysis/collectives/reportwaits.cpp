#include "core/analysis/collectives/reportwaits.h"

namespace ps::core::analysis::detail {

void ReportWaits::instance(const MatchedInstance &inst)
{
    if (!inst.complete())
        return;
    for (const Arrival &a : inst.members) {
        const int64_t wait = inst.waitOf(a);
        if (a.report >= m_byReport.size() || wait <= 0)
            continue;
        const int64_t own = a.o.start - (a.report < m_offsets.size() ? m_offsets[a.report] : 0);
        m_byReport[a.report].push_back({a.o.record, own, own + wait});
    }
}

void ReportWaits::block(const InstanceBlock &b)
{
    for (size_t m = 0; m < b.ranks.size(); ++m) {
        const uint32_t report = b.reports[m];
        if (report >= m_byReport.size())
            continue;
        const int64_t offset = report < m_offsets.size() ? m_offsets[report] : 0;
        std::vector<MemberWait> &out = m_byReport[report];
        for (size_t k = 0; k < b.count; ++k) {
            const size_t i = b.at(m, k);
            if (b.handled[k] && b.wait[i] > 0)
                out.push_back({b.recordAt(m, k), b.start[i] - offset, b.start[i] - offset + b.wait[i]});
        }
    }
}

} // namespace ps::core::analysis::detail
