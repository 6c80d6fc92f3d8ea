#include "core/config/envlookup.h"

#include <cstdlib>

namespace ps::core::config {

EnvLookup processEnvironment()
{
    return [](const std::string &name) -> std::optional<std::string> {
        const char *v = std::getenv(name.c_str());
        if (!v)
            return std::nullopt;
        return std::string(v);
    };
}

} // namespace ps::core::config
