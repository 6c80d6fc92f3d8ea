#!/bin/sh
# Writes one fuzz target's seed inputs into OUT, the way each area's seed script documents: real
# samples, their caches and digests made by the CLI, and generated fixtures of the real schema.
# Shared by the CTest smoke (smoke.sh) and the libFuzzer campaign (campaign.sh).
#   tests/fuzz/seeds.sh TARGET PROFSTUDIO_CLI SHARED_DIR OUT
set -eu
target=${1:?usage: seeds.sh TARGET CLI SHARED OUT}
cli=$(cd "$(dirname "${2:?}")" && pwd)/$(basename "$2")
shared=${3:?}
seeds=${4:?}
here=$(cd "$(dirname "$0")" && pwd)
traces=$shared/testdata/traces
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$seeds"
case "$target" in
fuzz_nsysreader) sh "$here/trace/makeseeds.sh" "$seeds" >/dev/null ;;
fuzz_digest) sh "$here/trace/makedigestseeds.sh" "$cli" "$seeds" >/dev/null ;;
fuzz_tracecache)
  # Real cache files of the nsys seeds, less their 64-byte header (the harness seals bodies).
  sh "$here/trace/makeseeds.sh" "$work/in" >/dev/null
  PROFSTUDIO_CACHE_DIR=$work/cache "$cli" trace info "$work/in" >/dev/null
  for f in $(find "$work/cache" -type f); do tail -c +65 "$f" >"$seeds/$(basename "$f")"; done ;;
fuzz_kinetoreader)
  for f in hta__triton_example__triton_example.json.gz hta__cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz; do
    zcat "$traces/kineto/$f" >"$seeds/${f%.gz}"
  done ;;
fuzz_memorysnapshot)
  python3 "$here/../formats/memoryfixtures.py" "$work/in" "$work/SENTINEL" >/dev/null
  find "$work/in" -name '*.pickle' -size -256k -exec cp {} "$seeds/" \; ;;
fuzz_rocpdreader) sh "$here/formats/makeseeds.sh" "$work/in" >/dev/null && cp "$work"/in/rocpd/* "$seeds/" ;;
fuzz_ascendreader) sh "$here/formats/makeseeds.sh" "$work/in" >/dev/null && cp "$work"/in/ascend/* "$seeds/" ;;
fuzz_rlinftracer) sh "$here/formats/makeseeds.sh" "$work/in" >/dev/null && cp "$work"/in/rlinf/* "$seeds/" ;;
fuzz_config)
  # A few of the real config trees' YAML files.
  find "$shared/testdata/configs" -name '*.yaml' -size -8k | sort | head -24 | while read -r f; do
    cp "$f" "$seeds/$(echo "$f" | tr '/' '_')"
  done ;;
*) echo "smoke.sh: no seeds known for $target" >&2; exit 2 ;;
esac
