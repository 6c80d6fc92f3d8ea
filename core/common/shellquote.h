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

} // namespace ps::core
