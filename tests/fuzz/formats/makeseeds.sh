#!/bin/sh
# Writes tiny seed inputs for fuzz_rocpdreader and fuzz_ascendreader into DIR/rocpd and
# DIR/ascend: copies of the real samples with every table cut to its first few rows (schema,
# views and indexes as they are, long texts cut), 512-byte pages, so that seeds stay a few KiB; and for
# fuzz_rlinftracer into DIR/rlinf, a few tracer lines.
#   tests/fuzz/formats/makeseeds.sh /tmp/fuzz-format-seeds
set -eu
out=${1:?usage: makeseeds.sh DIR}
traces=$(dirname "$0")/../../../../shared/testdata/traces
mkdir -p "$out/rocpd" "$out/ascend" "$out/rlinf"

# Copies SRC to DEST (the sample itself is never opened for writing) and keeps ROWS rows a table.
shrink() {
  cp "$1" "$2"
  chmod u+w "$2"
  for t in $(sqlite3 "$2" "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"); do
    sqlite3 "$2" "DELETE FROM \"$t\" WHERE rowid NOT IN (SELECT rowid FROM \"$t\" LIMIT $3)"
    # Long texts (agents' and code objects' JSON) cut to 256 bytes.
    for c in $(sqlite3 "$2" "SELECT name FROM pragma_table_info('$t')"); do
      sqlite3 "$2" "UPDATE \"$t\" SET \"$c\" = substr(\"$c\", 1, 256) WHERE length(\"$c\") > 256"
    done
  done
  sqlite3 "$2" "PRAGMA journal_mode=DELETE; PRAGMA page_size=512; VACUUM;" >/dev/null
}
shrink "$traces/rocpd/batched_gemm__37ca13315e70__28_results.db" "$out/rocpd/batched_gemm.seed.db" 4
for db in msinsight__level1__rank0__ascend_pytorch_profiler_0.db msinsight__full_db__msprof_0.db; do
  shrink "$traces/ascend/$db" "$out/ascend/${db%.db}.seed.db" 4
done
t0=1785578400000000
cat >"$out/rlinf/trace_events.jsonl" <<JSONL
{"name": "process_name", "ph": "M", "ts": $t0, "pid": "ActorGroup:1", "tid": "main", "args": {"name": "ActorGroup:1"}}
{"name": "step", "cat": "runner", "ph": "B", "ts": $t0, "pid": "driver", "tid": "main"}
{"name": "run_training", "cat": "ActorGroup", "ph": "B", "ts": $((t0 + 10)), "pid": "ActorGroup:1", "tid": "main"}
{"name": "forward", "cat": "ActorGroup", "ph": "X", "ts": $((t0 + 20)), "dur": 30.5, "pid": "ActorGroup:1", "tid": "main"}
{"name": "sync", "cat": "ActorGroup", "ph": "i", "ts": $((t0 + 60)), "pid": "ActorGroup:1", "tid": 7}
{"name": "run_training", "cat": "ActorGroup", "ph": "E", "ts": $((t0 + 90)), "pid": "ActorGroup:1", "tid": "main"}
{"name": "step", "cat": "runner", "ph": "E", "ts": $((t0 + 100)), "pid": "driver", "tid": "main"}
JSONL
ls -la "$out"/*
