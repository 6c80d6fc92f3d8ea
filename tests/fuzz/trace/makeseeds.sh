#!/bin/sh
# Writes tiny seed inputs for fuzz_nsysreader into DIR: a few rows of each table of real exports
# (columns as in the real schema), 512-byte pages so that seeds stay a few KiB.
#   tests/fuzz/trace/makeseeds.sh /tmp/fuzz-nsys-seeds
set -eu
out=${1:?usage: makeseeds.sh DIR}
nsys=$(dirname "$0")/../../../../shared/testdata/traces/nsys
mkdir -p "$out"

# The read-only, immutable URI of a path, escaped as core's sqliteReadOnlyUri() escapes it
# ('%', '?' and '#'; these paths hold no control characters), so an export is never written.
readonly_uri() {
  printf 'file:%s?mode=ro&immutable=1' "$(printf '%s' "$1" | sed -e 's/%/%25/g' -e 's/?/%3F/g' -e 's/#/%23/g')"
}
# A string as an SQL literal.
sql_quote() {
  printf "'%s'" "$(printf '%s' "$1" | sed -e "s/'/''/g")"
}
for src in "$nsys"/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite "$nsys"/extrap__ex-gpu.s10.sqlite \
           "$nsys"/ppcu-lab7__report1.sqlite "$nsys"/extrap__concurrent.s1.sqlite; do
  seed="$out/$(basename "$src" .sqlite).seed.sqlite"
  rm -f "$seed"
  sqlite3 "$seed" "PRAGMA page_size=512; VACUUM;"
  uri=$(readonly_uri "$src")
  tables=$(sqlite3 "$uri" "SELECT name FROM sqlite_master WHERE type='table' AND name IN ('StringIds','ThreadNames','CUPTI_ACTIVITY_KIND_KERNEL','CUPTI_ACTIVITY_KIND_RUNTIME','CUPTI_ACTIVITY_KIND_MEMCPY','CUPTI_ACTIVITY_KIND_MEMSET','CUPTI_ACTIVITY_KIND_SYNCHRONIZATION','NVTX_EVENTS','OSRT_API','TARGET_INFO_SESSION_START_TIME','EXPORT_META_DATA','META_DATA_EXPORT','TARGET_INFO_GPU','PROCESSES')")
  for t in $tables; do
    sqlite3 "$seed" "ATTACH $(sql_quote "$uri") AS src; CREATE TABLE $t AS SELECT * FROM src.$t LIMIT 6;"
  done
done
ls -la "$out"
