#pragma once
// Reads the reference CSVs of ../shared/testdata/peer/hta (pandas to_csv: RFC 4180 quoting,
// NaN as an empty field) into rows keyed by column name.

#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace csvref {

using Row = std::map<std::string, std::string>;

inline std::vector<std::string> splitLine(const std::string &line)
{
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            cells.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            cells.emplace_back();
        } else {
            cells.back() += c;
        }
    }
    return cells;
}

// Rows of a CSV file; the first line names the columns. Empty when the file is missing.
inline std::vector<Row> read(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::vector<Row> rows;
    if (!std::getline(in, line))
        return rows;
    const std::vector<std::string> header = splitLine(line);
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        const std::vector<std::string> cells = splitLine(line);
        Row r;
        for (size_t i = 0; i < header.size() && i < cells.size(); ++i)
            r[header[i]] = cells[i];
        rows.push_back(std::move(r));
    }
    return rows;
}

// A numeric cell; nullopt for NaN (empty).
inline std::optional<double> number(const Row &r, const std::string &column)
{
    auto it = r.find(column);
    if (it == r.end() || it->second.empty())
        return std::nullopt;
    return std::stod(it->second);
}

} // namespace csvref
