#pragma once
// Python's float repr (shortest round-trip digits; exponent form below 1e-4 and from 1e16 on),
// which both str() interpolation and PyYAML's float representer start from.

#include <string>

namespace ps::core::config {

// repr(v): "1.0", "0.001", "1e-05", "1.5e+16", "inf", "-inf", "nan".
std::string pythonFloatRepr(double v);

// PyYAML's represent_float: ".nan", ".inf", "-.inf", otherwise repr lowered with ".0" inserted
// before an exponent that has no dot ("1e-06" -> "1.0e-06").
std::string yamlFloat(double v);

} // namespace ps::core::config
