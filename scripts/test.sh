#!/usr/bin/env bash
# The test command of the README: installs dependencies, builds with warnings as errors and
# ASan+UBSan, and runs every test through CTest. Extra arguments go to ctest (e.g. -R config);
# `scripts/test.sh -L fast` runs only the tests not labelled slow (cmake/PsTest.cmake), the edit loop.
# Before the tests: the format check, the build (CMakePresets.json's dev preset), and clang-tidy
# (scripts/tidy.sh): over every file for the full run (no ctest arguments, as the README and
# .ci/run call it), over the files that differ from main only in a filtered edit loop such as
# `-L fast`; PS_TIDY=all or PS_TIDY=changed chooses either way.
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
# The real Nsight Systems 2022.4 (Debian non-free, ~172 MB once; quick when present) for
# tests/realnsys: CPU processes under `nsys profile`. PS_NSYS=/path/to/nsys uses another one.
if [[ -z "${PS_NSYS:-}" ]]; then
  "$root/scripts/fetch-nsys.sh" "$build/nsys"
  PS_NSYS="$build/nsys/bin/nsys"
fi
# The dev preset: shared libraries, so the ~110 executables share one copy of the code (static,
# they took ~15 GB).
cd "$root"
cmake --preset dev -DPS_SHARED_DIR="$shared" -DPS_NSYS="$PS_NSYS" >/dev/null
cmake --build --preset dev --parallel "$(nproc)"
# clang-tidy over core/, views/, app/ (.clang-tidy) and tests/ (tests/.clang-tidy): about 20
# minutes on 2 cores (views/ ~10 s a file with its Qt headers), so a filtered run checks only what
# changed.
tidy=${PS_TIDY:-}
if [[ -z "$tidy" ]]; then
  if (($# > 0)); then tidy=changed; else tidy=all; fi
fi
if [[ "$tidy" == "changed" ]]; then
  "$root/scripts/tidy.sh" "$build" --changed
else
  "$root/scripts/tidy.sh" "$build"
fi
ctest --preset dev --parallel "$(nproc)" "$@"
