#!/bin/sh
# The fuzz smoke of one target, as a ctest (tests/fuzz/CMakeLists.txt): writes the target's seeds
# into a fresh folder the way its seed script documents, then runs SMOKE_BIN (the harness linked
# with smokedriver.cpp) over them for SECONDS.
#   tests/fuzz/smoke.sh TARGET SMOKE_BIN PROFSTUDIO_CLI SHARED_DIR SECONDS
set -eu
target=${1:?usage: smoke.sh TARGET SMOKE_BIN CLI SHARED SECONDS}
bin=$(cd "$(dirname "${2:?}")" && pwd)/$(basename "$2")
cli=$(cd "$(dirname "${3:?}")" && pwd)/$(basename "$3")
shared=${4:?}
seconds=${5:?}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seeds=$work/seeds
mkdir -p "$seeds"
sh "$here/seeds.sh" "$target" "$cli" "$shared" "$seeds"
# Inputs that once found something are replayed first (a finding becomes a test).
regressions=$here/regressions/$target
[ -d "$regressions" ] || regressions=
cd "$work"
status=0
PS_FUZZ_FINDINGS=$work "$bin" "$seconds" "$seeds" $regressions || status=$?
if [ "$status" -ne 0 ] && [ -f "$work/finding" ]; then
  finding=${TMPDIR:-/tmp}/fuzzsmoke-$target-finding
  cp "$work/finding" "$finding"
  echo "smoke.sh: $target failed on the input kept as $finding (add it to tests/fuzz/regressions/$target/)" >&2
fi
exit "$status"
