#pragma once
// The one error type of the config engine. Composition stops at the first error (as Hydra does);
// the error carries the message (Hydra's wording where Hydra has one), where it happened, and the
// key path it concerns, so the CLI can print "FILE:LINE:COL: error: MESSAGE".

#include "core/config/sourcemark.h"

#include <stdexcept>
#include <string>

namespace ps::core::config {

class ConfigError : public std::runtime_error
{
public:
    explicit ConfigError(const std::string &message, SourceMark where = {}, std::string keyPath = {});

    // The message without location; may span several lines (e.g. the list of available options).
    const std::string &message() const { return m_message; }
    const SourceMark &where() const { return m_where; }
    // Dotted key path the error is about, or empty.
    const std::string &keyPath() const { return m_keyPath; }

    // "FILE:LINE:COL: error: MESSAGE" when a location is known, "error: MESSAGE" otherwise.
    std::string format() const;

private:
    std::string m_message;
    SourceMark m_where;
    std::string m_keyPath;
};

} // namespace ps::core::config
