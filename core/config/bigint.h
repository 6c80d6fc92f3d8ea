#pragma once
// Integers beyond 64 bits, as Python's unbounded ints give them to OmegaConf: only ever printed,
// so they are kept as decimal text (Node::bigInteger).

#include <string>
#include <string_view>

namespace ps::core::config {

// The decimal text of `digits` (no sign, no underscores) read in `base` (2, 8, 10 or 16), with
// a leading '-' when `negative` and the value is not zero; "" when a digit is not of the base.
std::string decimalFromDigits(std::string_view digits, int base, bool negative);

} // namespace ps::core::config
