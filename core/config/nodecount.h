#pragma once
// How many values a subtree holds (itself, its dict values and list items, recursively): the
// measure behind the size bounds that stop hostile configs (alias "billion laughs", configs
// merged many times) before they exhaust memory.

#include "core/config/node.h"

#include <cstddef>

namespace ps::core::config {

inline size_t countValues(const Node &n)
{
    size_t count = 1;
    for (const Node &child : n.items())
        count += countValues(child);
    return count;
}

} // namespace ps::core::config
