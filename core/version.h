#pragma once

namespace ps::core {
// The ProfStudio version, e.g. "0.1.0"; one source of truth (CMake's project version).
const char *versionString();
} // namespace ps::core
