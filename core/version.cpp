#include "core/version.h"

namespace ps::core {
const char *versionString()
{
    return PS_VERSION_STRING;
}
} // namespace ps::core
