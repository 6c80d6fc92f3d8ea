#include "core/profiling/diagnosticfold.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace ps::core::profiling {

namespace {

// A message split at its digit runs: text parts around the numbers (parts = numbers + 1).
struct Shape
{
    std::vector<std::string> parts;
    std::vector<std::string> numbers;
};

Shape shapeOf(const std::string &message)
{
    Shape s;
    s.parts.emplace_back();
    for (size_t i = 0; i < message.size();) {
        if (std::isdigit(static_cast<unsigned char>(message[i]))) {
            size_t j = i;
            while (j < message.size() && std::isdigit(static_cast<unsigned char>(message[j])))
                ++j;
            s.numbers.push_back(message.substr(i, j - i));
            s.parts.emplace_back();
            i = j;
        } else {
            s.parts.back() += message[i++];
        }
    }
    return s;
}

std::string groupKey(const DiagnosticLine &l, const Shape &s)
{
    std::string key = l.severity + '\x1f' + l.rule + '\x1f';
    for (const std::string &p : s.parts)
        key += p + '\x1e';
    return key;
}

// The message of a group: the first member's, its one varying number replaced by the list of all.
std::string foldedMessage(const std::vector<Shape> &shapes, size_t count)
{
    const Shape &first = shapes.front();
    int varying = -1;
    int varyingCount = 0;
    for (size_t n = 0; n < first.numbers.size(); ++n)
        if (std::any_of(shapes.begin(), shapes.end(),
                        [&](const Shape &s) { return s.numbers[n] != first.numbers[n]; })) {
            if (varying < 0)
                varying = int(n);
            ++varyingCount;
        }
    std::string out;
    for (size_t n = 0; n < first.parts.size(); ++n) {
        out += first.parts[n];
        if (n >= first.numbers.size())
            break;
        if (int(n) != varying) {
            out += first.numbers[n];
            continue;
        }
        std::vector<long long> values;
        for (const Shape &s : shapes)
            values.push_back(std::stoll(s.numbers[n].substr(0, 18)));
        out += compactNumberList(values);
    }
    out += " (" + std::to_string(count) + " times";
    if (varyingCount > 1)
        out += ", other numbers differ too";
    return out + ")";
}

} // namespace

std::string compactNumberList(std::vector<long long> numbers)
{
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    std::string out;
    for (size_t i = 0; i < numbers.size();) {
        size_t j = i;
        while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1)
            ++j;
        if (!out.empty())
            out += ", ";
        out += std::to_string(numbers[i]);
        if (j > i)
            out += (j == i + 1 ? ", " : "-") + std::to_string(numbers[j]);
        i = j + 1;
    }
    return out;
}

std::vector<FoldedDiagnostic> foldRepeatedDiagnostics(const std::vector<DiagnosticLine> &lines, size_t minRepeat)
{
    std::vector<Shape> shapes;
    std::map<std::string, size_t> groupOf; // key -> index into groups
    std::vector<std::vector<size_t>> groups;
    for (size_t i = 0; i < lines.size(); ++i) {
        shapes.push_back(shapeOf(lines[i].message));
        const auto [it, added] = groupOf.emplace(groupKey(lines[i], shapes.back()), groups.size());
        if (added)
            groups.emplace_back();
        groups[it->second].push_back(i);
    }
    std::vector<FoldedDiagnostic> out;
    for (const std::vector<size_t> &g : groups) {
        if (g.size() < std::max<size_t>(2, minRepeat)) {
            for (size_t i : g)
                out.push_back({lines[i], {i}});
            continue;
        }
        std::vector<Shape> members;
        for (size_t i : g)
            members.push_back(shapes[i]);
        FoldedDiagnostic f{lines[g.front()], g};
        f.line.message = foldedMessage(members, g.size());
        out.push_back(std::move(f));
    }
    std::sort(out.begin(), out.end(), [](const FoldedDiagnostic &a, const FoldedDiagnostic &b) {
        return a.members.front() < b.members.front();
    });
    return out;
}

Diagnostics foldRepeatedDiagnostics(const Diagnostics &diagnostics, size_t minRepeat)
{
    std::vector<DiagnosticLine> lines;
    lines.reserve(diagnostics.size());
    for (const Diagnostic &d : diagnostics)
        lines.push_back({severityName(d.severity), d.rule, d.message, {}, {}});
    Diagnostics out;
    for (FoldedDiagnostic &f : foldRepeatedDiagnostics(lines, minRepeat)) {
        out.push_back(diagnostics[f.members.front()]);
        out.back().message = std::move(f.line.message);
    }
    return out;
}

} // namespace ps::core::profiling
