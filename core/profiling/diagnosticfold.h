#pragma once
// Folds diagnostics that repeat per rank (or per step, per worker) into one line: lines of one
// severity and rule whose messages differ only in one number ("ActorGroup:5 ...", "ActorGroup:6
// ...") become the first message with that number replaced by the list of all of them ("ActorGroup:
// 5-97 ...") and a count, so one out-of-range rank range is one line, not one per rank. Configure's
// Diagnostics pane and the CLI's text output of validate and plan show the folded lines; JSON
// keeps every diagnostic.

#include "core/profiling/diagnostic.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ps::core::profiling {

struct DiagnosticLine
{
    std::string severity;
    std::string rule;
    std::string message;
    std::string where;
    std::string key;
};

struct FoldedDiagnostic
{
    DiagnosticLine line;         // the folded text (the first member's where and key)
    std::vector<size_t> members; // indices into the input, in input order
};

// Lines in the order their first member appears; a group of fewer than `minRepeat` lines stays
// line by line.
std::vector<FoldedDiagnostic> foldRepeatedDiagnostics(const std::vector<DiagnosticLine> &lines, size_t minRepeat = 3);

// The diagnostics as text lines show them: each fold one Diagnostic, the first member's with the
// folded message (severity, rule and location are the first member's).
Diagnostics foldRepeatedDiagnostics(const Diagnostics &diagnostics, size_t minRepeat = 3);

// "0-3, 7, 9-11" of ascending-sorted, de-duplicated numbers.
std::string compactNumberList(std::vector<long long> numbers);

} // namespace ps::core::profiling
