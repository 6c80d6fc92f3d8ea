#pragma once
// Python source for a string, for the generated scripts and jobs that carry names from configs and
// command lines (folders, config labels). Whatever the bytes (quotes, backslashes, newline, CR,
// NUL, `'''`, invalid UTF-8), the result is one double-quoted, pure-ASCII literal that
// py_compile accepts and that evaluates to the str os.fsdecode() gives for those bytes, so a
// path arrives at os.path and subprocess exactly as written.

#include <string>
#include <string_view>
#include <vector>

namespace ps::core {

// "..." with printable ASCII as is, \\ \" \n \r \t, other control characters as \xHH, other
// code points as \uXXXX / \UXXXXXXXX and bytes that are not UTF-8 as \udcXX (surrogateescape).
std::string pythonStringLiteral(std::string_view bytes);
// [lit, lit, ...] of the same.
std::string pythonStringListLiteral(const std::vector<std::string> &items);

} // namespace ps::core
