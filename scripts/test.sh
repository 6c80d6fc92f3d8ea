#!/usr/bin/env bash
# The test command of the README: installs dependencies, builds with warnings as errors and
# ASan+UBSan, and runs every test through CTest. Extra arguments go to ctest (e.g. -R config);
# `scripts/test.sh -L fast` runs only the tests not labelled slow (cmake/PsTest.cmake), the edit loop.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The tests read the real samples and configs in place: say where they must be before building.
shared=${PS_SHARED_DIR:-$root/../shared}
if [[ ! -d "$shared/testdata" ]]; then
  echo "test.sh: the test data is missing: expected $shared/testdata (the shared/ folder beside" >&2
  echo "the clone, or set PS_SHARED_DIR=/path/to/shared)." >&2
  exit 2
fi
"$root/scripts/install-deps.sh"
"$root/scripts/check-format.sh"

build="$root/build/test"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPS_WERROR=ON -DPS_SANITIZE=ON \
  -DPS_SHARED_DIR="$shared" \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" >/dev/null
cmake --build "$build" --parallel "$(nproc)"
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" "$@"
