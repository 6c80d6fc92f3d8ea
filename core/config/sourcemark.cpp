#include "core/config/sourcemark.h"

namespace ps::core::config {

std::string SourceMark::toString() const
{
    if (file.empty())
        return {};
    std::string s = file;
    if (line > 0) {
        s += ':' + std::to_string(line);
        if (column > 0)
            s += ':' + std::to_string(column);
    }
    return s;
}

} // namespace ps::core::config
