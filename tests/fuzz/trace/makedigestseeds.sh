#!/bin/sh
# Writes seed inputs for fuzz_digest into DIR: digests of the tiny nsys seeds (makeseeds.sh) and of
# a small Kineto sample, whole and --summary-only, each also with its zstd sections unpacked (the
# harness compresses such sections again, so mutations reach the images and pyramids inside).
#   tests/fuzz/trace/makedigestseeds.sh PROFSTUDIO_CLI DIR
set -eu
cli=${1:?usage: makedigestseeds.sh PROFSTUDIO_CLI DIR}
out=${2:?usage: makedigestseeds.sh PROFSTUDIO_CLI DIR}
here=$(dirname "$0")
traces=$here/../../../../shared/testdata/traces
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out" "$work/in"
sh "$here/makeseeds.sh" "$work/in" >/dev/null
zcat "$traces/kineto/hta__triton_example__triton_example.json.gz" >"$work/in/triton.json"
"$cli" trace digest --threads 1 --out "$work/whole" "$work/in" >/dev/null
"$cli" trace digest --threads 1 --summary-only --out "$work/summary" "$work/in" >/dev/null
for d in "$work"/whole/*.psdigest "$work"/summary/*.psdigest; do
  name=$(basename "$(dirname "$d")")-$(basename "$d")
  cp "$d" "$out/$name"
  python3 - "$d" "$out/unpacked-$name" <<'PY'
import struct, subprocess, sys
data = open(sys.argv[1], "rb").read()
count = struct.unpack_from("<I", data, 12)[0]
out = bytearray(data[:24 + 40 * count])
for i in range(count):
    e = 24 + 40 * i
    tag, codec, off, stored, raw, _ = struct.unpack_from("<4sIQQQQ", data, e)
    body = data[off:off + stored]
    if codec == 1:
        body = subprocess.run(["zstd", "-dc"], input=body, stdout=subprocess.PIPE, check=True).stdout
    out += b"\0" * (-len(out) % 8)
    struct.pack_into("<QQ", out, e + 8, len(out), len(body))  # the harness fixes sizes and sums
    out += body
open(sys.argv[2], "wb").write(out)
PY
done
ls -la "$out"
