#!/bin/bash
# Regenerates every case's expected output here with real Hydra 1.3.2 (OmegaConf 2.2.2): the
# oracle that ../shared/tools/setup-hydra-oracle.sh builds. The inputs (conf/, args, env, desc)
# are written by hand; expected.yaml, expected.resolved.yaml and expected.error only by this
# script. Same layout as testdata/configs/expected (its README), line 1 of `args` being relative
# to this folder.
#   HYDRA_ORACLE=/path/to/hydra-oracle HYDRA_ORACLE_HOME=/path/to/hydra-1.3.2 ./regen.sh
set -euo pipefail
: "${HYDRA_ORACLE:?set HYDRA_ORACLE to the hydra-oracle script}"
here=$(cd "$(dirname "$0")" && pwd)
for dir in "$here"/*/; do
  name=$(basename "$dir")
  mapfile -t args <"$dir/args"
  conf="$here/${args[0]}"
  rm -f "$dir"/expected.yaml "$dir"/expected.resolved.yaml "$dir"/expected.error
  envs=()
  [[ -f $dir/env ]] && mapfile -t envs <"$dir/env"
  envs=("${envs[@]//\{cases\}/$here}") # {cases}: this folder
  run() { env -u PS_ORACLE_UNSET "${envs[@]}" "$HYDRA_ORACLE" "$@" "$conf" "${args[1]}" "${args[@]:2}"; }
  if run >"$dir/expected.yaml" 2>"$dir/stderr"; then
    run --resolve >"$dir/expected.resolved.yaml" 2>/dev/null
  else
    rm -f "$dir/expected.yaml"
    mv "$dir/stderr" "$dir/expected.error"
  fi
  rm -f "$dir/stderr"
  echo "$name: $(ls "$dir" | grep expected | tr '\n' ' ')"
done
