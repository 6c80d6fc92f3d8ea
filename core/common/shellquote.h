#pragma once
// Shell quoting for emitted commands. The contract (ARCHITECTURE.md): bash splits a joined
// command back into exactly the argv it was made from, whatever the arguments hold (spaces,
// quotes, $, ;, *, newlines).

#include <string>
#include <string_view>
#include <vector>

namespace ps::core {

// Python's shlex.quote(): returns `arg` unchanged when it only holds characters that are safe
// unquoted ([A-Za-z0-9_@%+=:,./-]), '' for an empty string, otherwise single-quotes it, writing
// an embedded ' as '"'"'. Matching shlex.quote matters: the frameworks render with it.
std::string shellQuote(std::string_view arg);

// shellQuote of each argument, joined by single spaces (Python's shlex.join()).
std::string shellJoin(const std::vector<std::string> &argv);

// `text` for the rest of a `#` comment line in bash or Python: a backslash, every control
// character (newline; CR, at which Python also ends a line; TAB, NUL, ...) and every byte that
// is not UTF-8 (Python refuses such a file) are written as \\, \n, \r, \t, \xHH, so that no name
// or message can end the comment and become code; well-formed Unicode stays as it is.
std::string commentText(std::string_view text);

} // namespace ps::core
