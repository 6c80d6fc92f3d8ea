#!/bin/bash
# Remakes expected.tsv: every launch extract.sh finds, composed by real Hydra 1.3.2 (the oracle of
# ../shared/tools: setup-hydra-oracle.sh) as the launch would compose it: from the launch's working
# directory, in the environment the script made, with its PYTHONPATH after the repository root (python -m puts the working directory
# first on sys.path). One line per launch: SCRIPT#N, ok|error, the SHA-1 of what Hydra printed
# (the composed YAML, or the error message without Hydra's "ERROR: module.Exception: ") with the scratch
# folder's path written as {work} and without trailing newlines.
#   HYDRA_ORACLE=... HYDRA_ORACLE_HOME=... regen.sh [SCRATCH_DIR]
set -euo pipefail
: "${HYDRA_ORACLE:?set HYDRA_ORACLE to ../shared/tools/hydra-oracle}"
here=$(cd "$(dirname "$0")" && pwd)
testdata=$(cd "$here/../../../../shared/testdata/configs" 2>/dev/null && pwd || echo "${PS_TESTDATA_CONFIGS:?}")
work=${1:-$(mktemp -d)}
"$here/extract.sh" "$testdata" "$work"
tab=$'\t'
out=$here/expected.tsv
: >"$out.new"
declare -A seen
while IFS= read -r -d $'\x1e' rec; do
  mapfile -t -d $'\x1f' f < <(printf '%s' "$rec")
  script=${f[0]} cwd=${f[1]} dir=${f[2]} cfg=${f[3]}
  mapfile -t vars <<<"${f[4]}"
  pp=$(sed -n 's/^PYTHONPATH=//p' <<<"${f[4]}")
  n=${seen[$script]:-0}; seen[$script]=$((n + 1))
  set +e
  text=$(cd "$cwd" && env -i "${vars[@]}" PATH=/usr/bin:/bin PYTHONPATH="$cwd${pp:+:$pp}" \
    HYDRA_ORACLE_HOME="${HYDRA_ORACLE_HOME:-/opt/hydra-1.3.2}" "$HYDRA_ORACLE" -- "$dir" "$cfg" "${f[@]:5}" 2>"$work/err")
  status=$?
  set -e
  if ((status == 0)); then
    kind=ok
  else
    kind=error
    # the message without "ERROR: hydra.errors.X: " and without Python's warning lines
    absdir=$(realpath -s -m "$dir") # the oracle writes os.path.abspath(CONF_DIR) as {conf}
    text=$(grep -v '^ \|Warning\|warnings.warn' "$work/err" | sed -E "1s/^ERROR: [A-Za-z0-9_.]+: //; s|\\{conf\\}|$absdir|g")
  fi
  sum=$(printf '%s' "${text//$work/\{work\}}" | sha1sum | cut -c1-40)
  printf '%s#%d\t%s\t%s\n' "$script" "$n" "$kind" "$sum" >>"$out.new"
  [[ $kind == error ]] && printf '  %s#%d: %s\n' "$script" "$n" "$(head -1 <<<"$text")" >&2
done <"$work/launches"
mv "$out.new" "$out"
echo "$(wc -l <"$out") launches from $(cat "$work/scripts") scripts: $(grep -c "${tab}ok$tab" "$out") composed, $(grep -c "${tab}error$tab" "$out") errors"
