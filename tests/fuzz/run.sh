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
# SECONDS of the fuzzer's own CPU time, not of the wall clock: on a shared machine libFuzzer's
# -max_total_time (wall) would give a target less. Slices of the time still owed run until the CPU
# used reaches SECONDS (a slice is at least 20 s), the corpus carried from one slice to the next.
status=0
: >"$work/$name.log"
cpu=0
while [ "$status" -eq 0 ] && [ "$cpu" -lt "$seconds" ]; do
  slice=$((seconds - cpu))
  [ "$slice" -lt 20 ] && slice=20
  /usr/bin/time -f '%U %S' -o "$work/$name.cpu" "$bin" "$corpus" -max_total_time="$slice" \
    -rss_limit_mb=1024 -malloc_limit_mb=1024 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" >>"$work/$name.log" 2>&1 || status=$?
  # The last line: time(1) puts "Command exited with non-zero status N" before it.
  used=$(tail -n 1 "$work/$name.cpu" | awk '{printf "%d", $1 + $2}')
  cpu=$((cpu + used))
  [ "$used" -ge 1 ] || break # a fuzzer that ends at once would loop here forever
done
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log" | awk '{n += $1} END {print n}')
rate=$(awk -v r="$runs" -v c="$cpu" 'BEGIN {if (c > 0) printf "%d", r / c}')
# libFuzzer's last status line: "#N DONE cov: EDGES ft: FEATURES corp: UNITS/SIZE ...".
cov=$(grep -o 'cov: [0-9]*' "$work/$name.log" | tail -1 | cut -d' ' -f2)
features=$(grep -o 'ft: [0-9]*' "$work/$name.log" | tail -1 | cut -d' ' -f2)
corpus_units=$(ls "$corpus" | wc -l)
echo "$name: exit $status, ${runs:-?} runs, ${rate:-?} exec per CPU s, CPU $cpu s," \
  "coverage ${cov:-?} edges / ${features:-?} features, corpus $corpus_units, artifacts: $(ls "$artifacts" | wc -l)"
exit "$status"
