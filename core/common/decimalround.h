#pragma once
// Fixed-point text of a double rounded as `nsys stats` rounds: its reports round in SQL, and
// SQLite's round() takes a tie at the printed digit away from zero (12.25 -> "12.3", -0.05 ->
// "-0.1"), where printf and iostreams round the binary value to even (12.25 -> "12.2"). A tie is
// judged on the shortest decimal that reads back as the same double (0.15 is a tie, as a reader
// of "0.15" expects), which is what SQLite's round() sees as well.

#include <string>

namespace ps::core {

// `decimals` digits after the point (0..17); "nan", "inf", "-inf" for those.
std::string fixedHalfAwayFromZero(double value, int decimals);

} // namespace ps::core
