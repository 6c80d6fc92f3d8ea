#!/usr/bin/env bash
# Snapshot of the CLI's answers, to check that a refactoring changes no output:
#   scripts/cli-snapshot.sh OUTDIR            # before the change
#   scripts/cli-snapshot.sh OUTDIR2 && diff -r OUTDIR OUTDIR2
# Runs trace stats (nvtx_sum, kernel_sum, compare), phases, breakdown, compare, collectives,
# digest, and phases/compare/collectives over full and summary-only digests, on the shared samples and a demo run, in text
# and json; and compose of every shared case. Each command's stdout, stderr and exit status go to
# OUTDIR/<name>.{out,err,rc}. Temporary paths are replaced by fixed names so runs compare.
# CLI=path/to/profstudio-cli (default build/test/bin/profstudio-cli); DATA=testdata folder.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: cli-snapshot.sh OUTDIR}
cli=${CLI:-$here/build/test/bin/profstudio-cli}
data=${DATA:-$here/../shared/testdata}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PROFSTUDIO_CACHE_DIR=$work/cache

# run NAME ARGS...: one command's output, with the scratch folder's path made constant.
run() {
    local name=$1
    shift
    "$cli" "$@" >"$out/$name.out" 2>"$out/$name.err"
    echo $? >"$out/$name.rc"
    sed -i "s#$work#WORK#g; s#$data#DATA#g" "$out/$name.out" "$out/$name.err"
    # A digest's size varies by a few bytes from run to run (its compressed sections differ
    # though the events are the same), so sizes are not compared; everything else is.
    case $name in *-digest*)
        sed -Ei 's/("digest_bytes": )[0-9]+/\1N/; s/("bytes_per_event": )[0-9.e+-]+/\1N/;
                 s/-> [0-9]+ bytes \([0-9.]+ B\/event\)/-> N bytes (N B\/event)/' "$out/$name.out" ;;
    esac
}

# Each sample alone (the formats), then the nsys folder as one run.
samples=()
for f in "$data"/traces/nsys/*.sqlite "$data"/traces/rocpd/*.db "$data"/traces/ascend/*.db \
    "$data"/traces/kineto/*.json.gz; do
    samples+=("$f")
done
for f in "${samples[@]}"; do
    n=$(basename "$f")
    for fmt in text json; do
        run "stats-nvtx-$n.$fmt" trace stats --no-cache --report nvtx_sum --format "$fmt" "$f"
        run "stats-kernel-$n.$fmt" trace stats --no-cache --report kernel_sum --format "$fmt" "$f"
        run "breakdown-$n.$fmt" trace breakdown --no-cache --format "$fmt" "$f"
        run "phases-$n.$fmt" trace phases --no-cache --format "$fmt" "$f"
    done
done

# run_set NAME DIR: the run-level commands over one folder, as reports and as digests.
run_set() {
    local name=$1 dir=$2
    for fmt in text json; do
        run "$name-stats-compare.$fmt" trace stats --no-cache --report compare --format "$fmt" "$dir"
        run "$name-breakdown.$fmt" trace breakdown --no-cache --format "$fmt" "$dir"
        run "$name-breakdown-step.$fmt" trace breakdown --no-cache --by step --format "$fmt" "$dir"
        run "$name-phases.$fmt" trace phases --no-cache --format "$fmt" "$dir"
        run "$name-compare-self.$fmt" trace compare --no-cache --format "$fmt" "$dir" "$dir"
        run "$name-collectives.$fmt" trace collectives --no-cache --format "$fmt" "$dir"
    done
    mkdir -p "$work/$name-full" "$work/$name-summary"
    run "$name-digest.json" trace digest --format json --out "$work/$name-full" "$dir"
    run "$name-digest-summary.text" trace digest --summary-only --out "$work/$name-summary" "$dir"
    for kind in full summary; do
        for fmt in text json; do
            run "$name-$kind-phases.$fmt" trace phases --no-cache --format "$fmt" "$work/$name-$kind"
            run "$name-$kind-compare.$fmt" trace compare --no-cache --format "$fmt" "$dir" "$work/$name-$kind"
            run "$name-$kind-collectives.$fmt" trace collectives --no-cache --format "$fmt" "$work/$name-$kind"
            run "$name-$kind-stats-compare.$fmt" trace stats --no-cache --report compare --format "$fmt" \
                "$work/$name-$kind"
        done
    done
}

run_set nsys "$data/traces/nsys"
run_set kineto "$data/traces/kineto"
run_set ascend "$data/traces/ascend"

"$cli" demo --out "$work/demo" >/dev/null 2>&1
run_set demo "$work/demo"
"$cli" demo --out "$work/demo-digests" --digests >/dev/null 2>&1
for fmt in text json; do
    run "demo-digests-phases.$fmt" trace phases --no-cache --format "$fmt" "$work/demo-digests"
    run "demo-digests-compare.$fmt" trace compare --no-cache --format "$fmt" "$work/demo" "$work/demo-digests"
    run "demo-digests-collectives.$fmt" trace collectives --no-cache --format "$fmt" "$work/demo-digests"
done

# compose of every shared case (args: config dir, config name, overrides; env: NAME=VALUE).
for case in "$data"/configs/expected/*/; do
    name=$(basename "$case")
    mapfile -t lines <"$case/args"
    envs=()
    if [ -f "$case/env" ]; then
        while IFS= read -r e; do
            [ -n "$e" ] && envs+=("${e//\{configs\}/$data/configs}")
        done <"$case/env"
    fi
    resolve=()
    [ -f "$case/expected.resolved.yaml" ] || [ -f "$case/resolve" ] && resolve=(--resolve)
    env -u HYDRA_CORPUS_UNSET "${envs[@]}" "$cli" compose --config-dir "$data/configs/${lines[0]}" \
        --config-name "${lines[1]}" "${resolve[@]}" "${lines[@]:2}" >"$out/compose-$name.out" \
        2>"$out/compose-$name.err"
    echo $? >"$out/compose-$name.rc"
    sed -i "s#$data#DATA#g" "$out/compose-$name.out" "$out/compose-$name.err"
done
echo "snapshot in $out ($(ls "$out" | wc -l) files)"
