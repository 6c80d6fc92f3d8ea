#include "core/profiling/nsysoutput.h"

namespace ps::core::profiling {

bool namesRankVariable(const std::string &o)
{
    // RANK, LOCAL_RANK, OMPI_COMM_WORLD_RANK, PMI_RANK ... all end so; SLURM's is named apart.
    return o.find("RANK}") != std::string::npos || o.find("%q{SLURM_PROCID}") != std::string::npos;
}

std::string withRankVariable(const std::string &o)
{
    const size_t pid = o.find("%p");
    if (pid == std::string::npos)
        return o + "_rank%q{RANK}";
    const size_t at = pid > 0 && (o[pid - 1] == '_' || o[pid - 1] == '-') ? pid - 1 : pid;
    return o.substr(0, at) + "_rank%q{RANK}" + o.substr(at);
}

std::string expandNsysOutput(const std::string &o, const std::vector<std::pair<std::string, std::string>> &env)
{
    std::string out;
    for (size_t i = 0; i < o.size(); ++i) {
        const size_t close = o.compare(i, 3, "%q{") == 0 ? o.find('}', i + 3) : std::string::npos;
        if (close != std::string::npos) {
            const std::string var = o.substr(i + 3, close - i - 3);
            std::string value = "<" + var + ">";
            for (const auto &[k, v] : env)
                if (k == var)
                    value = v;
            out += value;
            i = close;
        } else if (o.compare(i, 2, "%p") == 0 || o.compare(i, 2, "%h") == 0) {
            out += o[i + 1] == 'p' ? "<PID>" : "<hostname>";
            ++i;
        } else {
            out += o[i];
        }
    }
    return out;
}

} // namespace ps::core::profiling
