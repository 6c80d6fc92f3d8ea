#include "core/trace/store/launchidentity.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <type_traits>

namespace ps::core::trace {

namespace {

// One launcher's variables; "" where it has none.
struct Family
{
    const char *rank, *worldSize, *localRank, *nodeRank;
    const char *localRankAlt = ""; // verl sets RAY_LOCAL_RANK, not LOCAL_RANK
};

// In precedence order (launchidentity.h says why).
constexpr Family kFamilies[] = {
    {"RANK", "WORLD_SIZE", "LOCAL_RANK", "GROUP_RANK", "RAY_LOCAL_RANK"},
    {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", ""},
    {"PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", ""},
    {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_NODEID"},
};

const std::string *valueOf(std::span<const EnvironmentVariable> env, std::string_view name)
{
    if (name.empty())
        return nullptr;
    // The last assignment wins, as in a shell's environment.
    const auto it =
        std::find_if(env.rbegin(), env.rend(), [&](const EnvironmentVariable &v) { return v.first == name; });
    return it == env.rend() ? nullptr : &it->second;
}

class Reader
{
public:
    Reader(std::span<const EnvironmentVariable> env, std::string_view where, std::vector<std::string> &problems)
        : m_env(env), m_where(where), m_problems(problems)
    {
    }
    bool has(const char *name) const { return valueOf(m_env, name) != nullptr; }
    // The variable as a number, or a problem when it is set to something else.
    std::optional<Recorded<int>> number(const char *name, const char *what) const
    {
        const std::string *v = valueOf(m_env, name);
        if (!v)
            return std::nullopt;
        if (const auto n = parseRankNumber(*v))
            return Recorded<int>{*n, name};
        problem(std::string(name) + "=\"" + *v + "\" is not " + what + " (expected a whole number in [0, 2^31)); " +
                "not used");
        return std::nullopt;
    }
    void problem(const std::string &text) const { m_problems.push_back(std::string(m_where) + ": " + text); }

private:
    std::span<const EnvironmentVariable> m_env;
    std::string_view m_where;
    std::vector<std::string> &m_problems;
};

void readFamily(const Reader &r, const Family &f, LaunchIdentity &id)
{
    id.rank = r.number(f.rank, "a rank");
    id.worldSize = r.number(f.worldSize, "a world size");
    id.localRank =
        r.has(f.localRank) ? r.number(f.localRank, "a local rank") : r.number(f.localRankAlt, "a local rank");
    if (*f.nodeRank)
        id.nodeRank = r.number(f.nodeRank, "a node rank");
    if (id.worldSize && id.worldSize->value == 0) {
        r.problem(id.worldSize->from + "=\"0\" is not a world size (no process would be in it); not used");
        id.worldSize.reset();
    }
    if (id.rank && id.worldSize && id.rank->value >= id.worldSize->value) {
        r.problem(id.rank->from + "=\"" + std::to_string(id.rank->value) + "\" is not below " + id.worldSize->from +
                  "=\"" + std::to_string(id.worldSize->value) + "\"; neither is used");
        id.rank.reset();
        id.worldSize.reset();
    }
}

// `--role NAME` or `--role=NAME` (torchrun, and launchers that copy it).
std::optional<Recorded<std::string>> roleOnCommandLine(std::span<const std::string> argv)
{
    for (size_t i = 1; i < argv.size(); ++i) {
        if (argv[i] == "--role" && i + 1 < argv.size() && !argv[i + 1].empty())
            return Recorded<std::string>{argv[i + 1], "--role"};
        if (argv[i].rfind("--role=", 0) == 0 && argv[i].size() > 7)
            return Recorded<std::string>{argv[i].substr(7), "--role"};
    }
    return std::nullopt;
}

std::optional<Recorded<std::string>> groupOf(std::span<const EnvironmentVariable> env,
                                             std::span<const std::string> argv)
{
    if (const std::string *v = valueOf(env, "WG_PREFIX"); v && !v->empty())
        return Recorded<std::string>{*v, "WG_PREFIX"};
    if (const std::string *v = valueOf(env, "ROLE_NAME"); v && !v->empty() && *v != "default")
        return Recorded<std::string>{*v, "ROLE_NAME"};
    return roleOnCommandLine(argv);
}

} // namespace

std::optional<int> parseRankNumber(std::string_view text)
{
    int64_t v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size() || v < 0 || v > INT32_MAX)
        return std::nullopt;
    return int(v);
}

LaunchReading launchIdentityOf(std::span<const EnvironmentVariable> environment,
                               std::span<const std::string> commandLine, std::string_view where)
{
    LaunchReading out;
    const Reader r(environment, where, out.problems);
    for (const Family &f : kFamilies)
        if (r.has(f.rank)) {
            readFamily(r, f, out.identity);
            break;
        }
    if (!out.identity.nodeRank)
        out.identity.nodeRank = r.number("SLURM_NODEID", "a node rank");
    out.identity.group = groupOf(environment, commandLine);
    return out;
}

namespace {

template <typename T>
void agree(std::span<const ProcessIdentity> processes, std::optional<Recorded<T>> LaunchIdentity::*field,
           const char *what, LaunchIdentity &out, std::vector<std::string> *problems)
{
    const ProcessIdentity *first = nullptr;
    for (const ProcessIdentity &p : processes) {
        const auto &v = p.launch.*field;
        if (!v)
            continue;
        if (!first) {
            first = &p;
            out.*field = v;
        } else if ((first->launch.*field)->value != v->value) {
            if (problems) {
                const auto text = [](const auto &x) {
                    if constexpr (std::is_same_v<T, int>)
                        return std::to_string(x.value);
                    else
                        return "\"" + x.value + "\"";
                };
                problems->push_back(std::string("contradictory ") + what + "s in one report: " + first->where +
                                    " says " + (first->launch.*field)->from + "=" + text(*(first->launch.*field)) +
                                    ", " + p.where + " says " + v->from + "=" + text(*v) + "; the report's " + what +
                                    " is not taken from them");
            }
            out.*field = std::nullopt;
            return;
        }
    }
}

} // namespace

LaunchIdentity reportLaunchIdentity(std::span<const ProcessIdentity> processes, std::vector<std::string> *problems)
{
    LaunchIdentity out;
    agree(processes, &LaunchIdentity::rank, "rank", out, problems);
    agree(processes, &LaunchIdentity::worldSize, "world size", out, problems);
    agree(processes, &LaunchIdentity::localRank, "local rank", out, nullptr);
    agree(processes, &LaunchIdentity::nodeRank, "node rank", out, nullptr);
    agree(processes, &LaunchIdentity::group, "worker group", out, problems);
    return out;
}

std::string recordedText(const std::optional<Recorded<int>> &field)
{
    return field ? std::to_string(field->value) + " (" + field->from + ", recorded)" : std::string();
}

std::string recordedText(const std::optional<Recorded<std::string>> &field)
{
    return field ? field->value + " (" + field->from + ", recorded)" : std::string();
}

} // namespace ps::core::trace
