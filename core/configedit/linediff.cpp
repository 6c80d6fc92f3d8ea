#include "core/configedit/linediff.h"

#include <algorithm>

namespace ps::core::configedit {

std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < text.size()) {
        size_t nl = text.find('\n', start);
        if (nl == std::string::npos)
            nl = text.size();
        lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return lines;
}

std::vector<DiffLine> diffLines(const std::vector<std::string> &a, const std::vector<std::string> &b)
{
    std::vector<DiffLine> out;
    size_t head = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head])
        ++head;
    size_t tail = 0;
    while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
        ++tail;
    for (size_t i = 0; i < head; ++i)
        out.push_back({DiffLine::Kind::Same, a[i], int(i + 1), int(i + 1)});

    const size_t n = a.size() - head - tail, m = b.size() - head - tail;
    constexpr size_t kMaxCells = 4'000'000;
    if (n > 0 && m > 0 && (n + 1) * (m + 1) <= kMaxCells) {
        // lcs[i][j] = LCS length of a[head+i..] and b[head+j..]
        std::vector<int> lcs((n + 1) * (m + 1), 0);
        const auto at = [&](size_t i, size_t j) -> int & { return lcs[i * (m + 1) + j]; };
        for (size_t i = n; i-- > 0;)
            for (size_t j = m; j-- > 0;)
                at(i, j) = a[head + i] == b[head + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
        size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a[head + i] == b[head + j]) {
                out.push_back({DiffLine::Kind::Same, a[head + i], int(head + i + 1), int(head + j + 1)});
                ++i, ++j;
            } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
                // Removals before additions, as diff(1) prints a changed line.
                out.push_back({DiffLine::Kind::Removed, a[head + i], int(head + i + 1), 0});
                ++i;
            } else {
                out.push_back({DiffLine::Kind::Added, b[head + j], 0, int(head + j + 1)});
                ++j;
            }
        }
    } else {
        for (size_t i = 0; i < n; ++i)
            out.push_back({DiffLine::Kind::Removed, a[head + i], int(head + i + 1), 0});
        for (size_t j = 0; j < m; ++j)
            out.push_back({DiffLine::Kind::Added, b[head + j], 0, int(head + j + 1)});
    }
    for (size_t k = 0; k < tail; ++k) {
        const size_t ia = a.size() - tail + k, ib = b.size() - tail + k;
        out.push_back({DiffLine::Kind::Same, a[ia], int(ia + 1), int(ib + 1)});
    }
    return out;
}

std::string unifiedDiff(const std::vector<DiffLine> &diff, int context)
{
    std::string out;
    const int n = static_cast<int>(diff.size());
    int i = 0;
    while (i < n) {
        if (diff[i].kind == DiffLine::Kind::Same) {
            ++i;
            continue;
        }
        // Extend a hunk while changes are closer than 2 * context lines apart.
        int start = std::max(0, i - context);
        int end = i;
        int sameRun = 0;
        for (int k = i; k < n; ++k) {
            if (diff[k].kind == DiffLine::Kind::Same) {
                if (++sameRun > 2 * context)
                    break;
            } else {
                sameRun = 0;
                end = k;
            }
        }
        end = std::min(n - 1, end + context);
        int oldStart = 0, newStart = 0, oldCount = 0, newCount = 0;
        for (int k = start; k <= end; ++k) {
            const DiffLine &d = diff[k];
            if (d.kind != DiffLine::Kind::Added) {
                oldStart = oldStart ? oldStart : d.oldLine;
                ++oldCount;
            }
            if (d.kind != DiffLine::Kind::Removed) {
                newStart = newStart ? newStart : d.newLine;
                ++newCount;
            }
        }
        out += "@@ -" + std::to_string(oldStart) + "," + std::to_string(oldCount) + " +" + std::to_string(newStart) +
               "," + std::to_string(newCount) + " @@\n";
        for (int k = start; k <= end; ++k) {
            const char mark = diff[k].kind == DiffLine::Kind::Same    ? ' '
                              : diff[k].kind == DiffLine::Kind::Added ? '+'
                                                                      : '-';
            out += mark + diff[k].text + "\n";
        }
        i = end + 1;
    }
    return out;
}

} // namespace ps::core::configedit
