#include "app/cli/cliargs.h"

#include <algorithm>

namespace ps::cli {

std::string ParsedArgs::value(const std::string &name, const std::string &fallback) const
{
    auto it = m_values.find(name);
    if (it == m_values.end() || it->second.empty())
        return fallback;
    return it->second.back();
}

std::optional<std::string> ParsedArgs::optional(const std::string &name) const
{
    auto it = m_values.find(name);
    if (it == m_values.end() || it->second.empty())
        return std::nullopt;
    return it->second.back();
}

const std::vector<std::string> &ParsedArgs::values(const std::string &name) const
{
    static const std::vector<std::string> kEmpty;
    auto it = m_values.find(name);
    return it == m_values.end() ? kEmpty : it->second;
}

ArgParser::ArgParser(CommandSpec spec) : m_spec(std::move(spec))
{
    m_spec.options.push_back({"help", "", "show this help and exit", false, 'h'});
}

const OptionSpec *ArgParser::find(const std::string &name) const
{
    for (const auto &o : m_spec.options)
        if (o.name == name)
            return &o;
    return nullptr;
}

const OptionSpec *ArgParser::findShort(char c) const
{
    for (const auto &o : m_spec.options)
        if (o.shortName == c)
            return &o;
    return nullptr;
}

ParseStatus ArgParser::parse(const std::vector<std::string> &args, ParsedArgs &out, std::ostream &stdoutStream,
                             std::ostream &err) const
{
    bool optionsEnded = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (optionsEnded || a.size() < 2 || a[0] != '-') {
            out.m_positionals.push_back(a);
            continue;
        }
        if (a == "--") {
            optionsEnded = true;
            continue;
        }
        const OptionSpec *spec = nullptr;
        std::string inlineValue;
        bool hasInline = false;
        if (a.rfind("--", 0) == 0) {
            std::string name = a.substr(2);
            auto eq = name.find('=');
            if (eq != std::string::npos) {
                inlineValue = name.substr(eq + 1);
                hasInline = true;
                name = name.substr(0, eq);
            }
            spec = find(name);
            if (!spec) {
                err << "error: unknown option '--" << name << "' (see --help)\n";
                return ParseStatus::UsageError;
            }
        } else if (a.size() == 2) {
            spec = findShort(a[1]);
            if (!spec) {
                err << "error: unknown option '" << a << "' (see --help)\n";
                return ParseStatus::UsageError;
            }
        } else {
            // "-x..." that is not a known short option: treat as a positional (e.g. a negative number).
            out.m_positionals.push_back(a);
            continue;
        }
        if (spec->name == "help") {
            printHelp(stdoutStream);
            return ParseStatus::HelpShown;
        }
        std::string v;
        if (spec->valueName.empty()) {
            if (hasInline) {
                err << "error: option '--" << spec->name << "' takes no value\n";
                return ParseStatus::UsageError;
            }
            v = "1";
        } else if (hasInline) {
            v = inlineValue;
        } else {
            if (i + 1 >= args.size()) {
                err << "error: option '--" << spec->name << "' needs a value " << spec->valueName << "\n";
                return ParseStatus::UsageError;
            }
            v = args[++i];
        }
        auto &slot = out.m_values[spec->name];
        if (!spec->repeatable)
            slot.clear();
        slot.push_back(v);
    }
    return ParseStatus::Ok;
}

void ArgParser::printHelp(std::ostream &out) const
{
    out << "Usage: " << m_spec.usage << "\n\n" << m_spec.summary << "\n";
    if (!m_spec.positionalHelp.empty())
        out << "\nArguments:\n  " << m_spec.positionalHelp << "\n";
    out << "\nOptions:\n";
    size_t width = 0;
    auto label = [](const OptionSpec &o) {
        std::string l = o.shortName ? std::string("-") + o.shortName + ", " : "    ";
        l += "--" + o.name;
        if (!o.valueName.empty())
            l += " " + o.valueName;
        return l;
    };
    for (const auto &o : m_spec.options)
        width = std::max(width, label(o).size());
    for (const auto &o : m_spec.options) {
        std::string l = label(o);
        out << "  " << l << std::string(width - l.size() + 2, ' ') << o.help;
        if (o.repeatable)
            out << " (repeatable)";
        out << "\n";
    }
    if (!m_spec.epilog.empty())
        out << "\n" << m_spec.epilog << "\n";
}

namespace {
bool checkFormat(const ParsedArgs &a, const std::vector<std::string> &allowed, std::string &format, std::ostream &err)
{
    format = a.value("format", allowed.front());
    if (std::find(allowed.begin(), allowed.end(), format) == allowed.end()) {
        err << "error: --format expects one of";
        for (const auto &f : allowed)
            err << " " << f;
        err << ", got '" << format << "'\n";
        return false;
    }
    return true;
}

} // namespace

int parseCommand(const CommandSpec &spec, const std::vector<std::string> &args, ParsedArgs &a,
                 const std::vector<std::string> &formats, std::string &format, std::ostream &out, std::ostream &err)
{
    ArgParser parser(spec);
    if (auto s = parser.parse(args, a, out, err); s != ParseStatus::Ok)
        return s == ParseStatus::HelpShown ? 0 : 2;
    return checkFormat(a, formats, format, err) ? -1 : 2;
}

} // namespace ps::cli
