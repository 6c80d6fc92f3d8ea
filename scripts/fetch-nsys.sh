#!/usr/bin/env bash
# Fetches NVIDIA Nsight Systems 2022.4 from Debian 12's non-free archive into DEST (default
# build/test/nsys) and exposes DEST/bin/nsys, DEST/bin/QdstrmImporter and DEST/lib/libnvToolsExt.so.1.
# The tests run it on CPU processes (NVTX ranges, OS runtime calls, threads): no GPU needed.
#
# Nothing of the machine's apt changes: apt-get reads a private sources list and keeps its lists
# and cache under DEST/.apt; the packages are unpacked with `dpkg-deb -x`, never installed.
# Download: about 172 MB (nsight-systems 137.5 MB, nsight-systems-target 34.3 MB, libssh-4
# 0.2 MB, libnvtoolsext1 32 kB); 603 MB unpacked. Idempotent: a second run returns at once.
#
# libssh-4 (Debian main) is fetched too: QdstrmImporter links libssh.so, which the package points
# at ../../x86_64-linux-gnu/libssh.so.4; without it the importer cannot start and `nsys profile`
# leaves a .qdstrm ("Importer error status: An unknown error occurred").
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=${1:-$root/build/test/nsys}
packages=(nsight-systems nsight-systems-target libnvtoolsext1 libssh-4)
stamp_text="${packages[*]} bookworm"

mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
# Two callers (test.sh and a hand-run) may fetch into the same DEST: one waits for the other.
exec 9>"$dest/.lock"
flock 9
if [[ -x "$dest/bin/nsys" && "$(cat "$dest/.fetched" 2>/dev/null)" == "$stamp_text" ]]; then
  exit 0
fi

apt_dir="$dest/.apt"
mkdir -p "$apt_dir"/{state/lists/partial,cache/archives/partial,debs}
: >"$apt_dir/state/status"
# Signed by the Debian archive keyring, as the machine's own /etc/apt/sources.list.d/* are.
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
  "http://deb.debian.org/debian bookworm main non-free" >"$apt_dir/sources.list"
apt_options=(
  -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State=$apt_dir/state" -o "Dir::State::status=$apt_dir/state/status"
  -o "Dir::Cache=$apt_dir/cache" -o Debug::NoLocking=1
  # The _apt user cannot write into DEST: download as the caller.
  -o "APT::Sandbox::User=$(id -un)"
)
echo "fetch-nsys: downloading ${packages[*]} (about 172 MB) into $dest" >&2
apt-get "${apt_options[@]}" -qq update
(cd "$apt_dir/debs" && rm -f ./*.deb && apt-get "${apt_options[@]}" -qq download "${packages[@]}")

# Unpack beside, then swap in: an interrupted run leaves no half tree behind DEST/bin/nsys.
rm -rf "$dest/tree.new" "$dest/tree" "$dest/bin" "$dest/lib" "$dest/.fetched"
mkdir "$dest/tree.new"
for deb in "$apt_dir"/debs/*.deb; do
  dpkg-deb -x "$deb" "$dest/tree.new"
done
mv "$dest/tree.new" "$dest/tree"

# The target's nsys (usr/lib/x86_64-linux-gnu/nsight-systems/target-linux-x64/nsys) looks for
# the importer in ../host-linux-x64, as in NVIDIA's own layout; Debian puts the host tree in
# usr/lib/nsight-systems/host-linux-x64 and adds the link in its postinst, which never runs here.
lib=usr/lib/x86_64-linux-gnu
ln -s ../../nsight-systems/host-linux-x64 "$dest/tree/$lib/nsight-systems/host-linux-x64"
mkdir -p "$dest/bin" "$dest/lib"
ln -s ../tree/$lib/nsight-systems/target-linux-x64/nsys "$dest/bin/nsys"
ln -s ../tree/$lib/nsight-systems/host-linux-x64/QdstrmImporter "$dest/bin/QdstrmImporter"
ln -s ../tree/$lib/libnvToolsExt.so.1 "$dest/lib/libnvToolsExt.so.1"

"$dest/bin/nsys" --version >&2
"$dest/bin/QdstrmImporter" --version >/dev/null
echo "$stamp_text" >"$dest/.fetched"
rm -rf "$apt_dir/cache" "$apt_dir/debs"
