#pragma once
// The median of some values: the middle one, or the mean of the two in the middle.

#include <algorithm>
#include <optional>
#include <vector>

namespace ps::core {

template <class T> std::optional<T> median(std::vector<T> values)
{
    if (values.empty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    const size_t m = values.size() / 2;
    return values.size() % 2 ? values[m] : (values[m - 1] + values[m]) / 2;
}

} // namespace ps::core
