#!/bin/sh
# The fuzzing campaign #37 asks for: every libFuzzer target SECONDS (default 600) of CPU time at
# full speed, one after the other so each has a core, seeded as the CTest smoke is (seeds.sh) plus
# the regression inputs. Prints one line per target (runs, exec/s, coverage, findings); findings
# are left in WORK/TARGET-artifacts/ to become regression inputs and tests.
#   CC=clang CXX=clang++ cmake -B build/fuzz -G Ninja -DPS_BUILD_FUZZ=ON -DPS_BUILD_GUI=OFF
#   cmake --build build/fuzz && tests/fuzz/campaign.sh build/fuzz build/test/bin/profstudio-cli \
#     ../shared /tmp/fuzz 600
set -u
fuzz_build=${1:?usage: campaign.sh FUZZ_BUILD CLI SHARED WORK [SECONDS]}
cli=${2:?}
shared=${3:?}
work=${4:?}
seconds=${5:-600}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
failed=0
for bin in $(find "$fuzz_build" -type f -name 'fuzz_*' -perm -u+x | sort); do
  target=$(basename "$bin")
  seeds=$work/$target-seeds
  rm -rf "$seeds"
  sh "$here/seeds.sh" "$target" "$cli" "$shared" "$seeds" >/dev/null || { failed=1; continue; }
  set -- "$seeds"
  [ -d "$here/regressions/$target" ] && set -- "$@" "$here/regressions/$target"
  sh "$here/run.sh" "$bin" "$work" "$seconds" "$@" || failed=1
done
exit "$failed"
