#!/usr/bin/env bash
# Installs the Debian 12 packages ProfStudio needs to build, test and run, if any is missing.
# Idempotent and quick when everything is present: it runs `apt-get update` only when it must
# install something.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev libqcustomplot-dev libgl-dev
  libyaml-dev libsqlite3-dev sqlite3 zlib1g-dev libsimdjson-dev libzstd-dev libxxhash-dev
  fonts-dejavu-core
  git  # scripts/tidy.sh and the format check list the tracked files
  rsync  # the collect-script tests run the script they export
  clang-format-14  # scripts/check-format.sh: the test command fails on unformatted files
  clang-tidy-14  # scripts/tidy.sh: the test command fails on a clang-tidy finding
  file dpkg-dev  # cpack -G DEB: file(1) and dpkg-shlibdeps give the .debs their dependencies
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
