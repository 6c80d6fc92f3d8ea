#!/usr/bin/env bash
# clang-tidy over the sources of a configured tree (its compile_commands.json): the product's
# core/, views/ and app/ with the repository's .clang-tidy, and tests/ with the light profile of
# tests/.clang-tidy (clang-tidy takes the nearest one). views/ is the slow part: its Qt headers
# make a file cost ~10 s of clang-tidy against ~3 s for core (#25 item 5). Only files the build
# compiles are checked (the fuzz targets need clang: not in a GCC tree).
# Fails, naming each finding, when any file has one. scripts/test.sh runs it on the whole tree.
#   scripts/tidy.sh BUILD_DIR              every .cpp
#   scripts/tidy.sh BUILD_DIR --changed    only those that differ from main (the edit loop)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:?usage: tidy.sh BUILD_DIR [--changed]}
cd "$root"
tool=clang-tidy-14
# The file lists come from git: without it (or outside a clone) tidy would check nothing and pass.
if ! command -v git >/dev/null || ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "tidy: git is missing or $root is not a git clone: cannot list the files to check" >&2
  exit 2
fi
globs=('core/*.cpp' 'views/*.cpp' 'app/*.cpp' 'tests/*.cpp')
if [[ "${2:-}" == "--changed" ]]; then
  base=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
  mapfile -t files < <({ git diff --name-only "$base" -- "${globs[@]}";
                         git ls-files --others --exclude-standard "${globs[@]}"; } | sort -u)
else
  mapfile -t files < <(git ls-files "${globs[@]}")
fi
# The files the build compiles, as compile_commands.json names them.
compiled=$(grep -o '"file": "[^"]*"' "$build/compile_commands.json" | sed 's/"file": "//; s/"$//' | sort -u)
existing=()
for f in "${files[@]}"; do
  [[ -f "$f" ]] && grep -qxF "$root/$f" <<<"$compiled" && existing+=("$f")
done
if ((${#existing[@]} == 0)); then
  if [[ "${2:-}" == "--changed" ]]; then
    echo "tidy: no checked file differs from main"
    exit 0
  fi
  echo "tidy: no .cpp of core/, views/, app/ or tests/ is in $build/compile_commands.json" >&2
  exit 2
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
