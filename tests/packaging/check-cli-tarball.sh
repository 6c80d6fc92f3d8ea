#!/usr/bin/env bash
# The relocatable CLI tarball (scripts/package-cli.sh) works where it is unpacked: a path with a
# space, an empty environment, called through a symlink; every shared object the process loads
# comes from the tarball (the dynamic loader's own trace says so), glibc included, and no Qt; it
# digests a real nsys export and reads the digest back. No older distribution exists here to run
# it on: that the bundled glibc is the one in use is what this checks.
#   check-cli-tarball.sh BUILD_DIR
set -euo pipefail
build=$1
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tarball=$("$repo/scripts/package-cli.sh" "$build" "$tmp/out")
mkdir -p "$tmp/un packed"
tar -C "$tmp/un packed" -xzf "$tarball"
root=$(echo "$tmp/un packed"/profstudio-cli-*)
ln -s "$root/bin/profstudio-cli" "$tmp/ps-cli"
fail() { echo "FAIL: $*" >&2; exit 1; }

version=$(env -i PATH=/usr/bin:/bin "$tmp/ps-cli" --version) || fail "--version did not run"
[[ "$version" == "profstudio-cli "* ]] || fail "--version printed '$version'"

# Every object the loader initialises once the wrapper has exec'd the CLI lies in the unpacked
# tree (what comes before is the wrapper's own sh and its dirname/readlink).
trace=$(env -i PATH=/usr/bin:/bin LD_DEBUG=libs "$tmp/ps-cli" --version 2>&1 >/dev/null)
inits=$(grep -o 'calling init: .*' <<<"$trace" | sed 's/calling init: //' |
  awk -v root="$root/" 'index($0, root) == 1 { on = 1 } on')
[ -n "$inits" ] || fail "the tarball's loader initialised nothing (LD_DEBUG gave nothing)"
grep -q '/libc\.so\.6$' <<<"$inits" || fail "libc was not among the initialised objects"
while read -r lib; do
  [[ "$lib" == "$root/"* ]] || fail "$lib was loaded from outside the tarball"
done <<<"$inits"
! ls "$root/lib" | grep -qi qt || fail "the tarball holds Qt libraries"

sample="$repo/../shared/testdata/traces/nsys/ppcu-lab7__report1.sqlite"
env -i PATH=/usr/bin:/bin HOME="$tmp" "$tmp/ps-cli" trace digest --out "$tmp/d" "$sample" >/dev/null ||
  fail "trace digest failed"
env -i PATH=/usr/bin:/bin HOME="$tmp" "$tmp/ps-cli" trace info --no-cache "$tmp/d/ppcu-lab7__report1.sqlite.psdigest" |
  grep -q 'nsys-sqlite' || fail "trace info on the digest did not name its format"
echo "ok: $(basename "$tarball"), $(ls "$root/lib" | wc -l) libraries, loader $(ls "$root/lib" | grep ld-linux)"
