#pragma once
// Where a piece of configuration text came from. Lines and columns are 1-based, as editors and
// the CLI's "FILE:LINE:COL: error:" convention count them; 0 means "unknown".

#include <string>
#include <string_view>

namespace ps::core::config {

// A file name as marks carry it. Every node of a config carries a mark and nodes are copied on
// every merge, so the name is interned once per process and a mark holds a pointer to it (a
// string per mark was most of the allocations of a composition). Converts to and from
// std::string.
class FileName
{
public:
    FileName() = default;
    FileName(std::string_view name); // NOLINT(google-explicit-constructor): names are strings
    FileName(const std::string &name) : FileName(std::string_view(name)) {}
    FileName(const char *name) : FileName(std::string_view(name)) {}

    const std::string &str() const;
    operator const std::string &() const { return str(); } // NOLINT(google-explicit-constructor)
    bool empty() const { return str().empty(); }
    const char *c_str() const { return str().c_str(); }
    size_t find(std::string_view what, size_t from = 0) const { return str().find(what, from); }
    void clear() { m_name = nullptr; }

    // Interned: equal names share one pointer.
    friend bool operator==(const FileName &a, const FileName &b) { return a.m_name == b.m_name; }
    friend bool operator==(const FileName &a, std::string_view b) { return a.str() == b; }
    friend bool operator==(const FileName &a, const char *b) { return a.str() == b; }
    friend bool operator==(const FileName &a, const std::string &b) { return a.str() == b; }
    friend std::string operator+(const FileName &a, std::string_view b) { return a.str() + std::string(b); }
    friend std::string operator+(std::string_view a, const FileName &b) { return std::string(a) + b.str(); }
    friend std::string operator+(const FileName &a, char b) { return a.str() + b; }

private:
    const std::string *m_name = nullptr; // owned by the process-wide table; null for ""
};

struct SourceMark
{
    FileName file; // absolute or as given; "<builtin>/profile/default.yaml" for presets,
                   // "<override>" for command-line values
    int line = 0;
    int column = 0;

    bool isKnown() const { return !file.empty(); }
    // "file:line:col", "file:line" or "file"; empty when unknown.
    std::string toString() const;
};

} // namespace ps::core::config
