#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what the repository's .clang-format makes of it.
# The major version is pinned: another clang-format formats some constructs differently.
# `scripts/check-format.sh --fix` formats the files in place instead.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
tool=clang-format-14
mapfile -t files < <(git ls-files '*.cpp' '*.h' 2>/dev/null || find core views app tests -name '*.cpp' -o -name '*.h')
if [[ "${1:-}" == "--fix" ]]; then
  "$tool" -i "${files[@]}"
  exit 0
fi
# One clang-format per batch of files, on every core; a file that would change is named in its
# "code should be clang-formatted" warnings (xargs then exits non-zero, which is expected here).
report=$(printf '%s\0' "${files[@]}" | xargs -0 -n 40 -P "$(nproc)" "$tool" --dry-run -Werror 2>&1 || true)
bad=$(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$report" | sort -u)
if [[ -n "$bad" ]]; then
  echo "check-format: these files are not formatted with $tool (run scripts/check-format.sh --fix):" >&2
  sed 's/^/  /' <<<"$bad" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
