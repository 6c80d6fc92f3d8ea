#pragma once
// Which annotation ranges are which RL phase. The defaults know the labels verl and RLinf put on
// their ranges (profiling-config-2026.md V8: verl's marked_timer names and worker stage labels,
// old and V1 trainer; profiling-config.md A9: RLinf's Worker.timer labels). Users add their own
// labels in a mapping file of "LABEL = PHASE" lines; their rules are tried first.
//
//   # my labels
//   my_generate = rollout
//   train/*     = update_actor      ('*' matches any run of characters)

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core::analysis {

struct PhaseRule
{
    std::string pattern; // a range label; '*' matches any run of characters
    std::string phase;
    bool operator==(const PhaseRule &) const = default;
};

class PhaseMapping
{
public:
    // verl's and RLinf's own labels.
    static PhaseMapping defaults();
    // Parses a mapping file's text. Returns nothing and sets `error` ("FILE:LINE: error: ...") on a
    // bad line.
    static std::optional<PhaseMapping> parse(std::string_view text, const std::string &file, std::string &error);

    // `user`'s rules first, then these.
    void prepend(const PhaseMapping &user);
    // The phase of a range label: the first rule that matches it. A label drawn with its NVTX
    // domain ("domain:label") also matches by the part after the domain.
    std::optional<std::string> phaseOf(std::string_view label) const;
    const std::vector<PhaseRule> &rules() const { return m_rules; }
    // Where a phase sorts among phases that start together (its first rule's position).
    size_t orderOf(std::string_view phase) const;
    // A regular expression (PCRE/ECMAScript) for the labels the phase's rules match, with or
    // without their NVTX domain, as phaseOf matches them: what a search for the phase's ranges
    // asks (Compare Runs finds a phase in the timeline). The phase's own name when no rule has it.
    std::string labelPattern(std::string_view phase) const;

private:
    std::vector<PhaseRule> m_rules;
};

// '*' globbing, as the mapping file uses it.
bool globMatch(std::string_view pattern, std::string_view text);

} // namespace ps::core::analysis
