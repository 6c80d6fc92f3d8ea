#include "core/config/configerror.h"

namespace ps::core::config {

namespace {

std::string composeWhat(const std::string &message, const SourceMark &where)
{
    if (where.isKnown())
        return where.toString() + ": error: " + message;
    return "error: " + message;
}

} // namespace

ConfigError::ConfigError(const std::string &message, SourceMark where, std::string keyPath)
    : std::runtime_error(composeWhat(message, where)), m_message(message), m_where(where), m_keyPath(std::move(keyPath))
{
}

std::string ConfigError::format() const
{
    return what();
}

} // namespace ps::core::config
