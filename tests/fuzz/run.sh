#!/bin/sh
# Runs one fuzz target as #29 asks: SECONDS (default 600) under ASan+UBSan with RSS and single
# allocations capped at 1 GB and a 10 s limit per input, at full speed (#37: not under nice), with
# its corpus in WORK/TARGET (seeded from the SEED folders, e.g. what seeds.sh wrote) and any crash,
# hang or over-cap input written to WORK/TARGET-artifacts/. Prints the run's figures (runs,
# exec/s, CPU, coverage).
#   tests/fuzz/run.sh build/fuzz/bin/fuzz_nsysreader /tmp/fuzz 600 /tmp/fuzz-nsys-seeds
set -eu
bin=${1:?usage: run.sh FUZZER WORK [SECONDS] [SEED...]}
work=${2:?usage: run.sh FUZZER WORK [SECONDS] [SEED...]}
seconds=${3:-600}
shift 3 2>/dev/null || shift $#
name=$(basename "$bin")
corpus=$work/$name
artifacts=$work/$name-artifacts
mkdir -p "$corpus" "$artifacts"
for seeds in "$@"; do
  cp -n "$seeds"/* "$corpus"/ 2>/dev/null || true
done
status=0
/usr/bin/time -f '%U %S' -o "$work/$name.cpu" "$bin" "$corpus" -max_total_time="$seconds" \
  -rss_limit_mb=1024 -malloc_limit_mb=1024 -timeout=10 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" >"$work/$name.log" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$name.log")
# libFuzzer's last status line: "#N DONE cov: EDGES ft: FEATURES corp: UNITS/SIZE ...".
cov=$(grep -o 'cov: [0-9]*' "$work/$name.log" | tail -1 | cut -d' ' -f2)
features=$(grep -o 'ft: [0-9]*' "$work/$name.log" | tail -1 | cut -d' ' -f2)
corpus_units=$(ls "$corpus" | wc -l)
echo "$name: exit $status, ${runs:-?} runs, ${rate:-?} exec/s, CPU $(awk '{print $1 + $2}' "$work/$name.cpu") s," \
  "coverage ${cov:-?} edges / ${features:-?} features, corpus $corpus_units, artifacts: $(ls "$artifacts" | wc -l)"
exit "$status"
