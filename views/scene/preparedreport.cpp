#include "views/scene/preparedreport.h"

#include "core/trace/tracereader.h"
#include "views/common/namecolors.h"

namespace ps::views {

using namespace ps::core::trace;

std::shared_ptr<const PreparedReport> PreparedReport::prepare(ReportPtr report, const CancelToken *cancel)
{
    auto p = std::make_shared<PreparedReport>();
    p->m_report = std::move(report);
    const EventStore &store = *p->m_report->store;
    p->m_levels.resize(store.tracks().size());
    for (uint32_t ti = 0; ti < store.tracks().size(); ++ti) {
        if (cancel && cancel->cancelled())
            return nullptr;
        const Track &t = store.track(ti);
        if (t.levelCount() <= 1)
            continue;
        auto &levels = p->m_levels[ti];
        levels.resize(t.levelCount());
        std::vector<size_t> counts(t.levelCount());
        const auto lv = t.columns().level;
        for (uint16_t l : lv)
            ++counts[std::min<size_t>(l, counts.size() - 1)];
        for (size_t l = 0; l < levels.size(); ++l)
            levels[l].reserve(counts[l]);
        for (size_t i = 0; i < lv.size(); ++i)
            levels[std::min<size_t>(lv[i], levels.size() - 1)].push_back(uint32_t(i));
    }
    p->m_deviceBusy = core::analysis::deviceBusy(store, cancel);
    if (cancel && cancel->cancelled())
        return nullptr;
    const NameTable &names = store.names();
    p->m_colors.resize(names.size());
    for (size_t i = 0; i < names.size(); ++i)
        p->m_colors[i] = colorForName(names[NameId(i)]).rgb();
    return p;
}

std::span<const uint32_t> PreparedReport::levelIndices(uint32_t track, uint16_t level) const
{
    if (track >= m_levels.size() || level >= m_levels[track].size())
        return {};
    return m_levels[track][level];
}

} // namespace ps::views
