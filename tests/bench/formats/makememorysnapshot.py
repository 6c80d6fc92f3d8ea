#!/usr/bin/python3
"""Writes a large CUDA memory snapshot shaped as torch writes it (bench_memorysnapshot):
usage: makememorysnapshot.py PATH ENTRIES [PROTOCOL=4]
Prints sums a reader must reproduce (JSON: entries, size_sum, addr_sum, time_sum, frames_sum).

Entries carry the keys torch 2.x writes (action, addr, size, stream, time_us, frames,
compile_context, user_metadata); frames lists come from a pool of distinct tracebacks whose
frame dicts come from a pool of distinct frames, shared as torch shares them (memo references);
addresses and stream handles are 47/48-bit ints, time_us is wall-clock µs.
"""
import pickle
import random
import sys

path, entries = sys.argv[1], int(sys.argv[2])
protocol = int(sys.argv[3]) if len(sys.argv) > 3 else 4
rng = random.Random(5)
files = ["/opt/conda/lib/python3.11/site-packages/torch/nn/modules/module.py",
         "/workspace/verl/verl/workers/actor/dp_actor.py", "/workspace/verl/verl/utils/torch_functional.py",
         "/opt/conda/lib/python3.11/site-packages/vllm/worker/model_runner.py", "c10/cuda/CUDACachingAllocator.cpp"]
frames = [{"filename": files[i % len(files)], "line": 10 + i, "name": "fn_%d" % i} for i in range(2000)]
stacks = [[frames[rng.randrange(len(frames))] for _ in range(rng.randint(8, 32))] for _ in range(5000)]
streams = [0, 94558428323344, 94558428323600]
actions = ["alloc", "free_requested", "free_completed"]
trace, live, t, addr = [], [], 1_700_000_000_000_000, 0x7F0000000000
for i in range(entries):
    t += rng.randint(1, 30)
    if live and i % 3:
        a, size, st = live.pop(rng.randrange(len(live)))
        action = "free_requested" if i % 3 == 1 else "free_completed"
        if action == "free_requested":
            live.append((a, size, st))
    else:
        addr += 1 << 20
        a, size, st = addr, rng.randint(1, 1 << 24), stacks[rng.randrange(len(stacks))]
        live.append((a, size, st))
        action = "alloc"
    trace.append({"action": action, "addr": a, "size": size, "stream": streams[i % 3], "time_us": t, "frames": st,
                  "compile_context": "N/A", "user_metadata": ""})
segments = [{"device": 0, "address": 0x7E0000000000, "total_size": 1 << 30, "allocated_size": 0, "active_size": 0,
             "requested_size": 0, "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0),
             "is_expandable": False, "frames": stacks[0],
             "blocks": [{"address": 0x7E0000000000, "size": 1 << 30, "requested_size": 1 << 30,
                         "state": "active_allocated", "frames": stacks[1]}]}]
snap = {"segments": segments, "device_traces": [trace], "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": ""},
        "external_annotations": []}
with open(path, "wb") as f:
    pickle.dump(snap, f, protocol=protocol)
print('{"entries": %d, "size_sum": %d, "addr_sum": %d, "time_sum": %d, "frames_sum": %d}' % (
    len(trace), sum(e["size"] for e in trace), sum(e["addr"] for e in trace) % 2**63,
    sum(e["time_us"] for e in trace) % 2**63, sum(len(e["frames"]) for e in trace)))
