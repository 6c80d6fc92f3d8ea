#include "core/profiling/pythonrepr.h"

namespace ps::core::profiling {

using config::Node;

std::string pythonTypeName(const Node &value)
{
    switch (value.kind()) {
    case Node::Kind::Null:
        return "<class 'NoneType'>";
    case Node::Kind::Bool:
        return "<class 'bool'>";
    case Node::Kind::Int:
        return "<class 'int'>";
    case Node::Kind::Float:
        return "<class 'float'>";
    case Node::Kind::String:
    case Node::Kind::Missing:
    case Node::Kind::Interpolation:
        return "<class 'str'>";
    case Node::Kind::Dict:
        return "<class 'omegaconf.dictconfig.DictConfig'>";
    case Node::Kind::List:
        return "<class 'omegaconf.listconfig.ListConfig'>";
    }
    return "<class 'object'>";
}

std::string pythonReprString(const std::string &text)
{
    const bool useDouble = text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
    const char q = useDouble ? '"' : '\'';
    std::string out(1, q);
    for (char c : text) {
        if (c == '\\')
            out += "\\\\";
        else if (c == q)
            out += std::string("\\") + q;
        else if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else
            out += c;
    }
    out += q;
    return out;
}

std::string pythonRepr(const Node &value)
{
    if (value.isStringLike())
        return pythonReprString(value.asString());
    if (value.isList()) {
        std::string out = "[";
        for (size_t i = 0; i < value.size(); ++i)
            out += (i ? ", " : "") + pythonRepr(value.items()[i]);
        return out + "]";
    }
    if (value.isDict()) {
        std::string out = "{";
        for (size_t i = 0; i < value.size(); ++i)
            out += (i ? ", " : "") + pythonReprString(value.keyAt(i)) + ": " + pythonRepr(value.valueAt(i));
        return out + "}";
    }
    return value.toPythonString();
}

std::string pythonStr(const Node &value)
{
    if (value.isContainer())
        return pythonRepr(value);
    return value.toPythonString();
}

std::string pythonListRepr(const std::vector<std::string> &items)
{
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + pythonReprString(items[i]);
    return out + "]";
}

std::string pythonListRepr(const std::vector<long long> &items)
{
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + std::to_string(items[i]);
    return out + "]";
}

} // namespace ps::core::profiling
