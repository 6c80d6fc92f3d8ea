#pragma once
// Command-line parsing shared by every profstudio-cli subcommand: long options with or without
// values (`--opt V` and `--opt=V`), repeatable options, flags, and positionals. Anything that
// starts with "--" and is not declared is a usage error (exit 2) naming the option.

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ps::cli {

struct OptionSpec
{
    std::string name;      // without the leading "--"
    std::string valueName; // empty for a flag; e.g. "DIR"
    std::string help;
    bool repeatable = false;
    char shortName = 0; // optional single-letter alias, e.g. 'o' for -o
};

struct CommandSpec
{
    std::string usage;   // e.g. "profstudio-cli compose [options] [OVERRIDE...]"
    std::string summary; // one paragraph
    std::vector<OptionSpec> options;
    std::string positionalHelp; // e.g. "OVERRIDE  Hydra override, e.g. a.b=1"
    std::string epilog;         // examples and notes
};

class ParsedArgs
{
public:
    bool has(const std::string &name) const { return m_values.count(name) > 0; }
    // The last value given for an option, or `fallback`.
    std::string value(const std::string &name, const std::string &fallback = {}) const;
    std::optional<std::string> optional(const std::string &name) const;
    const std::vector<std::string> &values(const std::string &name) const;
    const std::vector<std::string> &positionals() const { return m_positionals; }

private:
    friend class ArgParser;
    std::map<std::string, std::vector<std::string>> m_values;
    std::vector<std::string> m_positionals;
};

// Outcome of parsing: Ok, HelpShown (exit 0) or UsageError (exit 2, message already on err).
enum class ParseStatus { Ok, HelpShown, UsageError };

class ArgParser
{
public:
    explicit ArgParser(CommandSpec spec);
    // Parses args (without the program and subcommand names). "--" ends option parsing.
    // A lone "-" and words starting with "+" or "~" (Hydra overrides) are positionals.
    ParseStatus parse(const std::vector<std::string> &args, ParsedArgs &out, std::ostream &stdoutStream,
                      std::ostream &err) const;
    void printHelp(std::ostream &out) const;

private:
    const OptionSpec *find(const std::string &name) const;
    const OptionSpec *findShort(char c) const;
    CommandSpec m_spec;
};

// Parses a command's arguments and checks --format against `formats` (the first is the default).
// Returns -1 to go on, else the exit status: 0 after --help, 2 on a usage error (reported).
int parseCommand(const CommandSpec &spec, const std::vector<std::string> &args, ParsedArgs &a,
                 const std::vector<std::string> &formats, std::string &format, std::ostream &out, std::ostream &err);

} // namespace ps::cli
