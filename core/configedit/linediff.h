#pragma once
// A line diff of two texts for the "diff against the preset" pane. Edits of a profiling config
// touch a few lines of a long YAML, so the common head and tail are trimmed first and the LCS
// table only covers the changed middle (bounded; a huge middle degrades to delete + insert).

#include <string>
#include <vector>

namespace ps::core::configedit {

struct DiffLine
{
    enum class Kind { Same, Removed, Added };
    Kind kind = Kind::Same;
    std::string text;
    int oldLine = 0; // 1-based line in the old text; 0 for Added
    int newLine = 0; // 1-based line in the new text; 0 for Removed
};

std::vector<std::string> splitLines(const std::string &text);

// Every line of both texts in order, each marked Same / Removed / Added.
std::vector<DiffLine> diffLines(const std::vector<std::string> &oldLines, const std::vector<std::string> &newLines);

// Unified-diff hunks with `context` lines around changes ("@@ -a,b +c,d @@" headers); empty when
// the texts are equal.
std::string unifiedDiff(const std::vector<DiffLine> &diff, int context = 3);

} // namespace ps::core::configedit
