#pragma once
// Sixteen folder names as other people's nodes and configs may hand them to ProfStudio, for every
// test of what we generate from names (collect.sh, launch.sh, the Ray digest job and its submit
// line). Each injection tries to create the file named by $PS_PWNED: a test sets that variable
// to a path of its own and fails when the file appears. Quoting must also deliver every name
// byte for byte.

#include <string>
#include <vector>

namespace ps::test {

struct HostileName
{
    const char *what;
    std::string name;
};

inline std::vector<HostileName> hostileNames()
{
    return {
        {"space", "two words"},
        {"double quote", "say \"hi\" \"$(touch \"$PS_PWNED\")"},
        {"single quote", "it's 'touch \"$PS_PWNED\"'"},
        {"command substitution", "$(touch \"$PS_PWNED\")"},
        {"backticks", "`touch \"$PS_PWNED\"`"},
        {"semicolon", "a; touch \"$PS_PWNED\"; b"},
        {"newline", "line\ntouch \"$PS_PWNED\"\n# rest"},
        {"carriage return", "cr\rimport os; os.system('touch \"$PS_PWNED\"')\r#"},
        {"tab", "tab\tseparated"},
        {"trailing backslash", "trailing\\"},
        {"leading dash", "-e touch \"$PS_PWNED\" --rsh=sh"},
        {"globs", "glob*[ab]?{x,y}"},
        {"IFS", "$HOME${IFS}touch${IFS}$PS_PWNED"},
        {"unicode", "d\xc3\xa9j\xc3\xa0-\xe6\x95\xb0\xe6\x8d\xae-\xf0\x9f\x99\x82"},
        {"python ''' break-out", "'''); import os; os.system('touch \"$PS_PWNED\"'); ('"},
        {"python \"\"\" break-out", "\"\"\"); import os; os.system(\"touch $PS_PWNED\"); (\"\"\""},
    };
}

} // namespace ps::test
