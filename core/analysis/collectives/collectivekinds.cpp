#include "core/analysis/collectives/collectivekinds.h"

#include <array>
#include <string>
#include <utility>

namespace ps::core::analysis {

namespace {

// Lower case without '_', so "_allgather_base", "all_gather_into_tensor" and "AllGather" meet.
std::string folded(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s)
        if (c != '_' && c != ' ')
            out.push_back(c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c);
    return out;
}

bool startsWith(std::string_view s, std::string_view p)
{
    return s.substr(0, p.size()) == p;
}

} // namespace

CollectiveKind collectiveKind(std::string_view op)
{
    std::string f = folded(op);
    if (startsWith(f, "hcom")) // HCCL: hcom_<op>__<graph>_<index>_<n>
        f = f.substr(4);
    // Longer names first: "reducescatter" before "reduce", "allgather" before "all".
    static constexpr std::array<std::pair<std::string_view, CollectiveKind>, 11> kPrefixes = {{
        {"allreduce", CollectiveKind::AllReduce},
        {"allgather", CollectiveKind::AllGather},
        {"reducescatter", CollectiveKind::ReduceScatter},
        {"alltoall", CollectiveKind::AllToAll},
        {"broadcast", CollectiveKind::Broadcast},
        {"reduce", CollectiveKind::Reduce},
        {"sendrecv", CollectiveKind::SendRecv},
        {"send", CollectiveKind::SendRecv},
        {"recv", CollectiveKind::SendRecv},
        {"receive", CollectiveKind::SendRecv},
        {"barrier", CollectiveKind::Barrier},
    }};
    for (const auto &[prefix, kind] : kPrefixes)
        if (startsWith(f, prefix))
            return kind;
    return CollectiveKind::Other;
}

std::string_view collectiveKindName(CollectiveKind k)
{
    static constexpr std::array<std::string_view, 9> kNames = {
        "allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce", "sendrecv", "barrier", "other"};
    return kNames[size_t(k)];
}

bool isPointToPoint(std::string_view op)
{
    return collectiveKind(op) == CollectiveKind::SendRecv;
}

std::optional<int> dtypeBytes(std::string_view dtype)
{
    const std::string f = folded(dtype);
    static constexpr std::array<std::pair<std::string_view, int>, 22> kSizes = {{
        {"float", 4},    {"float32", 4}, {"int", 4},    {"int32", 4},        {"uint32", 4}, {"long", 8},
        {"int64", 8},    {"uint64", 8},  {"double", 8}, {"float64", 8},      {"half", 2},   {"float16", 2},
        {"bfloat16", 2}, {"short", 2},   {"int16", 2},  {"uint16", 2},       {"char", 1},   {"int8", 1},
        {"byte", 1},     {"uint8", 1},   {"bool", 1},   {"complexfloat", 8},
    }};
    for (const auto &[name, bytes] : kSizes)
        if (f == name)
            return bytes;
    if (startsWith(f, "float8"))
        return 1;
    return std::nullopt;
}

std::optional<double> busBandwidthFactor(CollectiveKind k, int n)
{
    if (n < 1)
        return std::nullopt;
    const double ring = double(n - 1) / double(n);
    switch (k) {
    case CollectiveKind::AllReduce:
        return 2 * ring;
    case CollectiveKind::AllGather:
    case CollectiveKind::ReduceScatter:
    case CollectiveKind::AllToAll:
        return ring;
    case CollectiveKind::Broadcast:
    case CollectiveKind::Reduce:
    case CollectiveKind::SendRecv:
        return 1.0;
    default:
        return std::nullopt;
    }
}

} // namespace ps::core::analysis
