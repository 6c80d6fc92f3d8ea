#pragma once
// Orders strings as people read numbered names: digit runs compare by value, so
// "rank_2" < "rank_10" and ".../r9/..." < ".../r10/..." (plain string order puts r10 before r9,
// which scatters a 1024-rank run's reports). Equal values with different zero padding fall back
// to plain order, so the order is total.

#include <string_view>

namespace ps::core {

bool naturalLess(std::string_view a, std::string_view b);

} // namespace ps::core
