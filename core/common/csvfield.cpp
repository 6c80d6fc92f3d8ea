#include "core/common/csvfield.h"

#include "core/common/terminaltext.h"

namespace ps::core {

std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

std::string csvTextField(std::string_view text)
{
    return needsTerminalEscape(text) ? csvField(terminalSafe(text)) : csvField(text);
}

} // namespace ps::core
