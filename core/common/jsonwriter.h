#pragma once
// A small streaming JSON writer for the CLI's --format json output. Writing JSON needs only
// correct string escaping and comma placement; parsing (Kineto traces) uses simdjson instead.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps::core {

class JsonWriter
{
public:
    // indent = 0 writes compact JSON on one line.
    explicit JsonWriter(int indent = 2);

    JsonWriter &beginObject();
    JsonWriter &endObject();
    JsonWriter &beginArray();
    JsonWriter &endArray();
    JsonWriter &key(std::string_view k);

    JsonWriter &value(std::string_view s);
    JsonWriter &value(const char *s) { return value(std::string_view(s)); }
    JsonWriter &value(const std::string &s) { return value(std::string_view(s)); }
    JsonWriter &value(int64_t v);
    // An integer given as its decimal digits (for values beyond 64 bits); written unquoted.
    JsonWriter &integerText(std::string_view digits);
    JsonWriter &value(int v) { return value(static_cast<int64_t>(v)); }
    JsonWriter &value(uint64_t v);
    JsonWriter &value(double v);
    JsonWriter &value(bool v);
    JsonWriter &null();
    template <typename T> JsonWriter &value(const std::optional<T> &v) { return v ? value(*v) : null(); }

    // The document so far; complete once every begin has its end.
    const std::string &str() const { return m_out; }

    static std::string escape(std::string_view s);

private:
    void beforeValue();
    void newline();

    std::string m_out;
    int m_indent;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_afterKey = false;
};

} // namespace ps::core
