#!/bin/bash
# Regenerates expected.json here from the real files beside it (PROVENANCE), with /usr/bin/python3
# alone, independently of ProfStudio:
#   memory_timeline.raw.gz    rows coalesced as torch's MemoryProfileTimeline._coalesce_timeline
#                             does (consecutive rows of one time are one sample, PREEXISTING's -1
#                             is the earliest time); the peak is the first sample with the
#                             highest total, with each category's bytes there;
#   memory_snapshot.pickle.gz memory_viz's Active Memory Timeline as ../../memoryfixtures.py counts
#                             it (expected_device), after checking that the pickle holds no
#                             opcode that imports or calls (so pickle.load runs nothing).
#   ./regen.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
/usr/bin/python3 - "$here" <<'PY'
import gzip, json, os, pickle, pickletools, sys

here = sys.argv[1]
sys.path.insert(0, os.path.join(here, "..", ".."))
from memoryfixtures import expected_device  # noqa: E402

rows = json.load(gzip.open(os.path.join(here, "memory_timeline.raw.gz")))
times, sizes = [], []
t_min = -1
for t, _action, numbytes, category in rows:
    if t_min == -1 or 0 < t < t_min:
        t_min = t
    if not times or t != times[-1]:
        times.append(t)
        sizes.append(list(sizes[-1]) if sizes else [0] * 8)
    sizes[-1][category] += numbytes
times = [t_min if t < 0 else t for t in times]
# HTA's own test (tests/test_memory_analysis.py at the commit in PROVENANCE) pins this sample.
assert sizes[744] == [102440608, 102228128, 19395584, 0, 2618160128, 58417152, 41811968, 25494440], sizes[744]
totals = [sum(s) for s in sizes]
peak = totals.index(max(totals))
# PREEXISTING's sample and the earliest time's are one instant: count distinct times.
timeline = {"rows": len(rows), "instants": len(set(times)), "peak_bytes": totals[peak], "peak_time_ns": times[peak],
            "categories_at_peak": sizes[peak]}

raw = gzip.open(os.path.join(here, "memory_snapshot.pickle.gz")).read()
unsafe = {"GLOBAL", "STACK_GLOBAL", "REDUCE", "BUILD", "INST", "OBJ", "NEWOBJ", "NEWOBJ_EX", "EXT1", "EXT2", "EXT4",
          "PERSID", "BINPERSID"}
found = {op.name for op, _arg, _pos in pickletools.genops(raw)} & unsafe
if found:
    sys.exit("memory_snapshot.pickle.gz holds opcodes that run code: %s" % sorted(found))
snap = pickle.loads(raw)
devices = []
for d, trace in enumerate(snap["device_traces"]):
    if trace or any(s["device"] == d for s in snap["segments"]):
        dev = expected_device(d, trace, snap["segments"])
        dev["entries"] = len(trace)
        devices.append(dev)

with open(os.path.join(here, "expected.json"), "w") as f:
    json.dump({"memory_timeline.raw.gz": timeline, "memory_snapshot.pickle.gz": devices}, f, indent=1)
    f.write("\n")
print("timeline peak %d B at %d ns; snapshot device peaks %s" %
      (timeline["peak_bytes"], timeline["peak_time_ns"], [d["peak_bytes"] for d in devices]))
PY
