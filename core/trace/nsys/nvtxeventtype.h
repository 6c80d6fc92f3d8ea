#pragma once
// The NVTX_EVENTS.eventType numbers of Nsight Systems SQLite exports (spec 1.4), shared by the
// reader, the demo report writer and the tests, so that none of them spells the numbers itself.

#include <initializer_list>
#include <string>

namespace ps::core::trace::nsys {

enum class NvtxEventType : int {
    Category = 33,      // names a category of a domain (nvtxNameCategory)
    Mark = 34,          // an instant (nvtxMark); never has an end
    PushPopRange = 59,  // nvtxRangePush / nvtxRangePop
    StartEndRange = 60, // nvtxRangeStart / nvtxRangeEnd; may end on another thread
    NvtxtPushPop = 70,  // NVTXT (text file) push/pop range
    NvtxtStartEnd = 71, // NVTXT (text file) start/end range
    DomainCreate = 75,  // names a domain (nvtxDomainCreate)
};

constexpr int number(NvtxEventType t)
{
    return static_cast<int>(t);
}

constexpr bool isPushPop(int type)
{
    return type == number(NvtxEventType::PushPopRange) || type == number(NvtxEventType::NvtxtPushPop);
}

constexpr bool isStartEnd(int type)
{
    return type == number(NvtxEventType::StartEndRange) || type == number(NvtxEventType::NvtxtStartEnd);
}

// "59,60" for an SQL IN (...) list.
inline std::string sqlList(std::initializer_list<NvtxEventType> types)
{
    std::string out;
    for (NvtxEventType t : types)
        out += (out.empty() ? "" : ",") + std::to_string(number(t));
    return out;
}

// The ranges (push/pop and start/end, NVTX and NVTXT), as an SQL list.
inline std::string rangeTypesSql()
{
    return sqlList({NvtxEventType::PushPopRange, NvtxEventType::StartEndRange, NvtxEventType::NvtxtPushPop,
                    NvtxEventType::NvtxtStartEnd});
}

// Every event the reader draws: the ranges and marks.
inline std::string drawnTypesSql()
{
    return sqlList({NvtxEventType::Mark}) + "," + rangeTypesSql();
}

} // namespace ps::core::trace::nsys
