#pragma once
// The sink behind the breakdown's collective waits (collectivewait.h): each member's wait on its
// report's own clock.

#include "core/analysis/collectives/collectivesink.h"
#include "core/analysis/collectives/collectivewait.h"

#include <span>
#include <vector>

namespace ps::core::analysis::detail {

// Each member of a complete instance with a wait, on its report's own clock.
class ReportWaits : public InstanceSink
{
public:
    ReportWaits(std::span<const int64_t> offsets, size_t reports) : m_offsets(offsets), m_byReport(reports) {}
    void instance(const MatchedInstance &inst) override;
    void block(const InstanceBlock &b) override;
    std::vector<std::vector<MemberWait>> take() { return std::move(m_byReport); }

private:
    std::span<const int64_t> m_offsets;
    std::vector<std::vector<MemberWait>> m_byReport;
};

} // namespace ps::core::analysis::detail
