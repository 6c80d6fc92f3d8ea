#!/usr/bin/python3
"""Writes PyTorch-shaped CUDA memory snapshots and memory-timeline exports for tst_torchmemory,
with what a reader must find in them computed here, independently, as memory_viz counts
(../shared/spec/analysis-definitions-2026.md B1-B3).

usage: memoryfixtures.py OUTDIR SENTINEL_PATH [beside]

With `beside`, writes instead one run (run/step5/) of three ranks, each with a snapshot on the
wall clock and a Kineto trace of the same rank (distributedInfo.rank, the same step folder) whose
verl annotation ranges cover the snapshot's span, so the phase at each rank's peak is known; and a
snapshot written by an older PyTorch, without time_us (notimes/).

Snapshots are plain data, as torch writes them: one frame dict per distinct frame and one frames
list per distinct traceback, shared between entries (so the pickle memo refers back to them),
interned key strings, big ints (addresses, time_us), a (0, 0) pool id tuple and float settings.
"""
import gzip
import json
import os
import pickle
import random
import sys

USER = [("forward", "/app/model.py"), ("train_step", "/app/train.py"), ("rollout", "/app/rollout.py"),
        ("update_actor", "/app/actor.py"), ("sync_weights", "/app/sync.py")]
INTERNAL = [("_call_impl", "/usr/lib/python3/site-packages/torch/nn/modules/module.py"),
            ("c10::cuda::CUDACachingAllocator::malloc", "c10/cuda/CUDACachingAllocator.cpp"),
            ("??", "??")]


def internal(frame):
    f = frame["filename"]
    return f in ("", "??") or f.endswith((".c", ".cc", ".cpp", ".cu", ".cuh", ".h", ".hpp")) or "/torch/" in f \
        or "\\torch\\" in f or f.startswith("torch/")


def make_stacks(rng, n):
    frames = {}

    def frame(name, filename, line):
        return frames.setdefault((name, filename, line), {"filename": filename, "line": line, "name": name})

    stacks = []
    for i in range(n):
        user = [frame(*USER[(i + k) % len(USER)], 10 + i * 7 + k) for k in range(1 + i % 3)]
        inner = [frame(*INTERNAL[k], 100 + k) for k in range(i % 4)]
        stacks.append(inner + user)  # innermost first, as torch lists them
    return stacks


MIB = 2**20


def round_up(n, unit):
    return (n + unit - 1) // unit * unit


def dump_segment(device, addr, seg):
    """A segment as torch's snapshot lists it: its block, then the rest of it as an inactive block."""
    blocks, used = [], 0
    if seg["block"]:
        size, requested, state, st = seg["block"]
        blocks.append({"address": addr, "size": size, "requested_size": requested, "state": state, "frames": st})
        used = size
    if used < seg["size"]:
        blocks.append({"address": addr + used, "size": seg["size"] - used, "requested_size": 0, "state": "inactive",
                       "frames": []})
    active = sum(b["size"] for b in blocks if b["state"] != "inactive")
    return {"device": device, "address": addr, "total_size": seg["size"],
            "allocated_size": sum(b["size"] for b in blocks if b["state"] == "active_allocated"),
            "active_size": active, "requested_size": sum(b["requested_size"] for b in blocks), "stream": 0,
            "segment_type": "large", "segment_pool_id": (0, 0), "is_expandable": seg.get("expandable", False),
            "frames": seg["stack"], "blocks": blocks}


def simulate(rng, device, stacks, n_events, base_time):
    """A device trace as PyTorch's caching allocator records it, one block per segment: an
    allocation takes a cached free segment of its rounded size, else a new one (segment_alloc,
    2 MiB granularity); a freed block's segment stays reserved until the allocator releases its
    free segments (segment_free) before it reports an OOM. So reserved memory always holds the
    allocated. Planted: blocks allocated before recording began (freed in the trace without an
    alloc, or active at dump time and never allocated), a peak, an OOM, an expandable segment
    mapped. Returns (trace, the dump-time segments)."""
    trace = []
    t = base_time
    segs = {}  # address -> {"size", "block": (size, requested, state, frames) or None, "stack"}
    next_addr = [0x7F0000000000 + device * 2**36]

    def entry(action, addr, size, stack):
        nonlocal t
        t += rng.randint(1, 50)
        e = {"action": action, "addr": addr, "size": size, "stream": 0 if rng.random() < 0.7 else 94558428323344,
             "time_us": t, "frames": stack, "compile_context": "N/A", "user_metadata": ""}
        if action == "oom":
            del e["addr"]
            e["device_free"] = addr
        trace.append(e)

    def alloc(size, stack):
        block = round_up(size, 512)
        need = round_up(block, 2 * MIB)
        a = next((a for a in sorted(segs) if segs[a]["block"] is None and segs[a]["size"] == need), None)
        if a is None:
            a = next_addr[0]
            next_addr[0] += need
            segs[a] = {"size": need, "block": None, "stack": stack}
            entry("segment_alloc", a, need, stack)
        segs[a]["block"] = (block, size, "active_allocated", stack)
        entry("alloc", a, size, stack)
        return a

    def free(a):
        size, _, _, st = segs[a]["block"]
        entry("free_requested", a, segs[a]["block"][1], st)
        entry("free_completed", a, segs[a]["block"][1], st)
        segs[a]["block"] = None

    def before_recording(base, k, size, stack, state="active_allocated"):
        a = base + k * 2**26
        segs[a] = {"size": round_up(size, 2 * MIB), "block": (round_up(size, 512), size, state, stack),
                   "stack": stack}
        return a

    # Blocks allocated before recording began: three freed in the trace without an alloc, two
    # active at dump time and never allocated, one freed but not yet completed.
    early = 0x7E0000000000 + device * 2**36
    pre_freed = [before_recording(early, k, (k + 1) * 3 * MIB + 512 * k + 7, stacks[k % len(stacks)])
                 for k in range(3)]
    for k in range(2):
        before_recording(early, 3 + k, 5 * MIB + 1000 * k + 3, stacks[(k + 2) % len(stacks)])
    before_recording(early, 5, MIB - 5, stacks[0], "active_pending_free")
    live = []
    for i in range(n_events):
        if live and rng.random() < 0.45:
            free(live.pop(rng.randrange(len(live))))
        else:
            stack = stacks[rng.randrange(len(stacks))] if i else stacks[0]  # the first from forward()
            live.append(alloc(rng.randint(1, 2000) * 4096 + rng.randint(0, 511), stack))
        if i == n_events // 3:
            for a in pre_freed:
                size, requested, _, st = segs[a]["block"]
                entry("free_completed", a, requested, st)
                segs[a]["block"] = None
        if i == n_events // 2:  # the planted peak: a burst of large activations, then an OOM
            burst = [alloc((600 + 37 * k) * MIB + k, stacks[4]) for k in range(4)]
            for a in sorted(segs):  # emptying the cache before giving up, as PyTorch does
                if segs[a]["block"] is None:
                    entry("segment_free", a, segs[a]["size"], segs[a]["stack"])
                    del segs[a]
            entry("oom", 3 * 2**30 + 5, 8 * 2**30 + device, stacks[4])
            for a in burst:
                free(a)
    mapped = next_addr[0]
    segs[mapped] = {"size": 2 * MIB, "block": None, "stack": stacks[1], "expandable": True}
    entry("segment_map", mapped, 2 * MIB, stacks[1])
    entry("snapshot", 0, 0, [])
    return trace, [dump_segment(device, a, segs[a]) for a in sorted(segs)]


def expected_reserved(device, trace, segments):
    """Reserved bytes as the segment events move them, anchored at the dump-time segments."""
    deltas = [e["size"] * (1 if e["action"] in ("segment_alloc", "segment_map") else -1) for e in trace
              if e["action"] in ("segment_alloc", "segment_free", "segment_map", "segment_unmap")]
    end = sum(s["total_size"] for s in segments if s["device"] == device)
    running = end - sum(deltas)
    peak = running
    for d in deltas:
        running += d
        peak = max(peak, running)
    return {"reserved_end": end, "peak_reserved": peak,
            "segments": sum(1 for s in segments if s["device"] == device),
            "blocks": sum(len(s["blocks"]) for s in segments if s["device"] == device)}


def expected_device(device, trace, segments):
    """memory_viz's Active Memory Timeline, written out afresh: allocs open elements, frees close
    them, frees of unknown addresses and unallocated active blocks count from the start."""
    elements, open_ = [], {}
    for i, e in enumerate(trace):
        if e["action"] == "alloc":
            open_[e["addr"]] = len(elements)
            elements.append([e["size"], e["frames"], i, None])
        elif e["action"] == "free_completed":
            if e["addr"] in open_:
                elements[open_.pop(e["addr"])][3] = i
            else:
                elements.append([e["size"], e["frames"], -1, i])
    for s in segments:
        if s["device"] != device:
            continue
        for b in s["blocks"]:
            if b["state"] == "active_allocated" and b["address"] not in open_:
                elements.append([b["requested_size"], b["frames"], -1, None])
    total = sum(el[0] for el in elements if el[2] == -1)
    peak, peak_i = total, -1
    for i, e in enumerate(trace):
        for el in elements:
            if el[2] == i:
                total += el[0]
            if el[3] == i:
                total -= el[0]
        if e["action"] in ("alloc", "free_completed") and total > peak:
            peak, peak_i = total, i
    groups = {}
    for size, frames, start, end in elements:
        if (start == -1 or start <= peak_i) and (end is None or peak_i == -1 or end > peak_i):
            user = tuple((f["name"], f["filename"], f["line"]) for f in frames if not internal(f))
            g = groups.setdefault(user, [0, 0])
            g[0] += size
            g[1] += 1
    live = sorted(([b, n, [list(f) for f in u]] for u, (b, n) in groups.items()), key=lambda g: -g[0])
    ooms = [[e["time_us"] * 1000, e["size"], e["device_free"]] for e in trace if e["action"] == "oom"]
    return {"device": device, "peak_bytes": peak,
            "peak_time_ns": trace[peak_i]["time_us"] * 1000 if peak_i >= 0 else None,
            "live_at_peak": live, "ooms": ooms, "peak_event": peak_i}


def snapshot(seed, devices, n_events):
    rng = random.Random(seed)
    stacks = make_stacks(rng, 6)
    traces, segments = [], []
    for d in range(devices):
        trace, segs = simulate(rng, d, stacks, n_events, 1_700_000_000_000_000 + d * 1000)
        traces.append(trace)
        segments.extend(segs)
    settings = {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:False", "max_split_size": -1,
                "garbage_collection_threshold": 0.0, "expandable_segments": False,
                "roundup_power2_divisions": {"1": 0, "2": 0}, "big": 2**70 + 3, "neg": -(2**65)}
    snap = {"segments": segments, "device_traces": traces, "allocator_settings": settings,
            "external_annotations": []}
    expected = [dict(expected_device(d, traces[d], segments), **expected_reserved(d, traces[d], segments))
                for d in range(devices)]
    return snap, expected


class Evil:
    def __init__(self, sentinel):
        self.sentinel = sentinel

    def __reduce__(self):
        return (os.system, ("touch " + self.sentinel,))


def timelines(out):
    rng = random.Random(7)
    rows, t, expected = [], 1_000_000, {}
    # PREEXISTING parameters at t = -1, then steps of activations and gradients.
    for k in range(5):
        rows.append([-1, 1, (k + 1) * 2**20, 0])
    running = [0] * 8
    for k in range(5):
        running[0] += (k + 1) * 2**20
    best = (sum(running), rows and 1_000_000 + 1, list(running))
    first_t = None
    for i in range(200):
        t += rng.randint(100, 1000)
        first_t = first_t or t
        cat = rng.choice([2, 3, 4, 5])
        size = rng.randint(1, 100) * 2**16
        if rng.random() < 0.4 and running[cat] >= size:
            rows.append([t, 4, -size, cat])
            running[cat] -= size
        else:
            rows.append([t, 2, size, cat])
            running[cat] += size
        if sum(running) > best[0]:
            best = (sum(running), t, list(running))
    with gzip.open(os.path.join(out, "rank1_memory_profile.raw.json.gz"), "wt") as f:
        json.dump(rows, f)
    expected["rank1_memory_profile.raw.json.gz"] = {"peak_bytes": best[0], "peak_time_ns": best[1],
                                                    "categories": best[2]}
    # The plain export: times in µs, rows of 9 running totals (column 0 unused).
    times, sizes, run = [], [], [0] * 9
    peak = (0, None, None)
    for i in range(50):
        times.append(1000.0 + i * 2.5)
        run[1 + i % 8] += (i * 13 % 7 + 1) * 2**20
        sizes.append(list(run))
        if sum(run) > peak[0]:
            peak = (sum(run), int(round((1000.0 + i * 2.5) * 1000)), list(run[1:]))
    with gzip.open(os.path.join(out, "rank2_memory_profile.json.gz"), "wt") as f:
        json.dump([times, sizes], f)
    expected["rank2_memory_profile.json.gz"] = {"peak_bytes": peak[0], "peak_time_ns": peak[1],
                                                "categories": peak[2]}
    return expected


# verl's range labels and the phase ProfStudio's default mapping gives them (phasemapping.cpp).
PHASES = [("generate_sequences", "rollout"), ("compute_log_prob", "old_log_prob"), ("update_actor", "update_actor")]


def kineto_trace(rank, pid, first_us, last_us, splits):
    """Back-to-back annotation ranges over [first_us, last_us], split at the fractions `splits`,
    and a kernel in each."""
    events, bounds = [], []
    cuts = [first_us] + [first_us + int((last_us - first_us) * f) for f in splits] + [last_us + 1]
    for k, (label, _) in enumerate(PHASES):
        start, end = cuts[k], cuts[k + 1]
        bounds.append((start, end))
        events.append({"ph": "X", "cat": "user_annotation", "name": label, "pid": pid, "tid": pid,
                       "ts": start, "dur": end - start})
        events.append({"ph": "X", "cat": "kernel", "name": "gemm_%d" % k, "pid": 0, "tid": 7, "ts": start + 1,
                       "dur": max(1, (end - start) // 2), "args": {"device": 0, "stream": 7, "correlation": k + 1}})
    return {"schemaVersion": 1, "distributedInfo": {"rank": rank, "world_size": 3}, "traceEvents": events}, bounds


def beside_run(out, run, seed, expected):
    for rank in range(3):
        rng = random.Random(seed + rank)
        stacks = make_stacks(rng, 6)
        trace, segs = simulate(rng, 0, stacks, 150 + 60 * rank, 1_700_000_000_000_000 + rank * 7)
        snap = {"segments": segs, "device_traces": [trace], "allocator_settings": {}, "external_annotations": []}
        pid = 700 + rank
        name = "%s/step5/torch_memory_rank%d_pid%d.pickle" % (run, rank, pid)
        os.makedirs(os.path.join(out, run, "step5"), exist_ok=True)
        with open(os.path.join(out, name), "wb") as f:
            pickle.dump(snap, f, protocol=4)
        dev = expected_device(0, trace, segs)
        times = [e["time_us"] for e in trace]
        kineto, bounds = kineto_trace(rank, pid, min(times), max(times), [(0.33, 0.66), (0.6, 0.8), (0.2, 0.4)][rank])
        with open(os.path.join(out, run, "step5/kineto_rank%d.pt.trace.json" % rank), "w") as f:
            json.dump(kineto, f)
        peak_us = dev["peak_time_ns"] // 1000
        label, phase = next(PHASES[k] for k, (a, b) in enumerate(bounds) if a <= peak_us < b)
        expected[str(rank)] = {"path": name, "peak_bytes": dev["peak_bytes"], "peak_time_ns": dev["peak_time_ns"],
                               "ooms": dev["ooms"], "live_at_peak": dev["live_at_peak"],
                               "first_ns": min(times) * 1000, "range": label, "phase": phase}


def beside(out):
    expected = {"ranks": {}, "candidate": {}}
    beside_run(out, "run", 11, expected["ranks"])
    # A second run of the same job (other allocations), for trace compare.
    beside_run(out, "run2", 111, expected["candidate"])
    peaks = sorted(r["peak_bytes"] for r in expected["ranks"].values())
    top = max(expected["ranks"], key=lambda r: expected["ranks"][r]["peak_bytes"])
    expected["highest"] = {"rank": int(top), "median": peaks[1], "over": expected["ranks"][top]["peak_bytes"] - peaks[1]}
    # An older PyTorch: no time_us anywhere.
    rng = random.Random(21)
    trace, segs = simulate(rng, 0, make_stacks(rng, 6), 30, 0)
    for e in trace:
        del e["time_us"]
    os.makedirs(os.path.join(out, "notimes"), exist_ok=True)
    with open(os.path.join(out, "notimes/torch_memory_rank0_pid9.pickle"), "wb") as f:
        pickle.dump({"segments": segs, "device_traces": [trace]}, f, protocol=2)
    dev = expected_device(0, [dict(e, time_us=0) for e in trace], segs)
    expected["notimes"] = {"peak_bytes": dev["peak_bytes"], "peak_event": dev["peak_event"], "entries": len(trace)}
    return expected


def main():
    out, sentinel = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3 and sys.argv[3] == "beside":
        with open(os.path.join(out, "expected.json"), "w") as f:
            json.dump(beside(out), f)
        return
    expected = {}
    for name, proto, seed, devices, n in [("step3/torch_memory_rank0_pid4242.pickle", 4, 1, 2, 300),
                                          ("step3/torch_memory_rank1_pid4243.pickle", 2, 2, 1, 400),
                                          ("small.pickle", 4, 3, 1, 12)]:
        snap, exp = snapshot(seed, devices, n)
        path = os.path.join(out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            pickle.dump(snap, f, protocol=proto)
        expected[name] = exp
    for proto in (2, 4):
        with open(os.path.join(out, "evil_p%d.pickle" % proto), "wb") as f:
            pickle.dump({"segments": [], "device_traces": [Evil(sentinel)]}, f, protocol=proto)
    expected["timelines"] = timelines(out)
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f)


if __name__ == "__main__":
    main()
