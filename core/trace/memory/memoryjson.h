#pragma once
// Reading the memory summaries' JSON (memorypeaks.h, analysis/memorysummary.h) with simdjson's
// DOM: each accessor throws std::runtime_error naming the key that is missing or of the wrong
// type, so a decoder reads straight through and reports the first problem.

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ps::core::trace::memoryjson {

namespace dom = simdjson::dom;

inline int64_t intAt(dom::object o, const char *key)
{
    int64_t v = 0;
    if (o[key].get_int64().get(v) != simdjson::SUCCESS)
        throw std::runtime_error(std::string("missing or non-integer \"") + key + "\"");
    return v;
}

inline std::optional<int64_t> optionalIntAt(dom::object o, const char *key)
{
    dom::element e;
    if (o[key].get(e) != simdjson::SUCCESS)
        throw std::runtime_error(std::string("missing \"") + key + "\"");
    if (e.is_null())
        return std::nullopt;
    return intAt(o, key);
}

inline std::string textAt(dom::object o, const char *key)
{
    std::string_view v;
    if (o[key].get_string().get(v) != simdjson::SUCCESS)
        throw std::runtime_error(std::string("missing \"") + key + "\"");
    return std::string(v);
}

inline dom::array arrayAt(dom::object o, const char *key)
{
    dom::array a;
    if (o[key].get_array().get(a) != simdjson::SUCCESS)
        throw std::runtime_error(std::string("missing \"") + key + "\"");
    return a;
}

} // namespace ps::core::trace::memoryjson
