#!/usr/bin/env bash
# clang-tidy with the repository's .clang-tidy over the product sources of core/, views/ and app/
# of a configured tree (its compile_commands.json). views/ is the slow part: its Qt headers make
# a file cost ~10 s of clang-tidy against ~3 s for core (#25 item 5).
# Fails, naming each finding, when any file has one. scripts/test.sh runs it on the whole tree.
#   scripts/tidy.sh BUILD_DIR              every product .cpp
#   scripts/tidy.sh BUILD_DIR --changed    only those that differ from main (the edit loop)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:?usage: tidy.sh BUILD_DIR [--changed]}
cd "$root"
tool=clang-tidy-14
if [[ "${2:-}" == "--changed" ]]; then
  base=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
  mapfile -t files < <({ git diff --name-only "$base" -- 'core/*.cpp' 'views/*.cpp' 'app/*.cpp';
                         git ls-files --others --exclude-standard 'core/*.cpp' 'views/*.cpp' 'app/*.cpp'; } | sort -u)
else
  mapfile -t files < <(git ls-files 'core/*.cpp' 'views/*.cpp' 'app/*.cpp')
fi
existing=()
for f in "${files[@]}"; do [[ -f "$f" ]] && existing+=("$f"); done
if ((${#existing[@]} == 0)); then
  echo "tidy: no files to check"
  exit 0
fi
# GCC-only flags of the sanitizer build mean nothing to clang; its warnings are the compiler's job.
report=$(printf '%s\0' "${existing[@]}" |
  xargs -0 -n 4 -P "$(nproc)" "$tool" -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option 2>/dev/null || true)
findings=$(grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error): .*\[[a-z]' <<<"$report" || true)
if [[ -n "$findings" ]]; then
  echo "tidy: clang-tidy findings (.clang-tidy; fix them, or say why in a NOLINT comment):" >&2
  sort -u <<<"$findings" >&2
  exit 1
fi
echo "tidy: ${#existing[@]} files clean"
