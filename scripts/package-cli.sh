#!/usr/bin/env bash
# Makes the relocatable profstudio-cli tarball for cluster nodes: no root, no Qt, any x86-64
# Linux distribution whatever its glibc (it brings its own: the C library, the dynamic loader and
# every other shared library the CLI uses, from the build machine), kernel 3.2 or later.
#
#   scripts/package-cli.sh [BUILD_DIR [OUT_DIR]]   (defaults: build/release, as scripts/run.sh builds, and the build dir)
#
# Layout of profstudio-cli-<version>-linux-x86_64/:
#   bin/profstudio-cli        a sh wrapper: runs libexec/profstudio-cli through lib/'s loader with
#                             lib/ as its only library path, wherever the folder was unpacked
#   libexec/profstudio-cli    the executable
#   lib/                      its shared libraries, glibc's included
# Prints the tarball's path.
set -euo pipefail

build=${1:-build/release}
out=${2:-$build}
exe="$build/bin/profstudio-cli"
[ -x "$exe" ] || { echo "package-cli: $exe is missing (build it first)" >&2; exit 2; }
version=$("$exe" --version | awk '{print $2}')
name="profstudio-cli-$version-linux-x86_64"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
mkdir -p "$root/bin" "$root/lib" "$root/libexec"
cp "$exe" "$root/libexec/profstudio-cli"
# Every library the executable loads, the dynamic loader among them, dereferenced.
loader=""
while read -r lib; do
  cp -L "$lib" "$root/lib/"
  case "$lib" in */ld-linux*) loader=$(basename "$lib") ;; esac
done < <(ldd "$exe" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}')
[ -n "$loader" ] || { echo "package-cli: no dynamic loader found by ldd" >&2; exit 1; }
if ldd "$exe" | grep -qi 'libQt'; then
  echo "package-cli: the CLI links Qt; it must not" >&2
  exit 1
fi
cat > "$root/bin/profstudio-cli" <<WRAP
#!/bin/sh
# Runs ProfStudio's CLI with the libraries shipped beside it (see README.txt).
here=\$(dirname "\$(readlink -f "\$0")")/..
exec "\$here/lib/$loader" --library-path "\$here/lib" "\$here/libexec/profstudio-cli" "\$@"
WRAP
chmod +x "$root/bin/profstudio-cli"
cat > "$root/README.txt" <<TXT
profstudio-cli $version for x86-64 Linux, relocatable: unpack anywhere (no root) and run
bin/profstudio-cli, or put bin/ on PATH. It brings its own shared libraries, the GNU C library
($(ldd --version | head -1 | sed 's/^ldd //')) and its loader included, so it runs on distributions
with an older glibc (RHEL/Rocky 8, Ubuntu 20.04, Debian 10, ...) on a Linux kernel 3.2 or later.
Example, as verl's finish hook:  global_profiler.finish_hook_cmd='profstudio-cli trace digest --verl-hook'
TXT
mkdir -p "$out"
tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
echo "$out/$name.tar.gz"
