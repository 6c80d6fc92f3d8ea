#!/usr/bin/env python3
"""A CPU stand-in for one verl training rank, run under the real `nsys profile` by tst_realnsysranks.

    cpurank.py barrier SOCKET RANKS     the barrier: waits for RANKS ranks, then, at every
                                        micro-batch, answers every rank once all have arrived
    cpurank.py rank SOCKET RANK STEPS WORK_MS PIDFILE
                                        one rank: STEPS steps of verl's phases as NVTX ranges
                                        (libnvToolsExt.so.1 through ctypes); in update_actor,
                                        MICRO micro-batches of WORK_MS CPU milliseconds each,
                                        then the barrier, as a gradient all-reduce would hold it

A rank waits for the others blocked in recv() on the barrier's socket: nsys's OS runtime trace
records the call, and ProfStudio counts it as waiting (core/analysis/phases/osrtwait.h). Work is CPU time
(time.process_time), so a rank given more of it is late whatever the scheduler does.
"""
import ctypes
import os
import socket
import sys
import time

MICRO = 4


def barrier(path, ranks):
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(ranks)
    conns = [server.accept()[0] for _ in range(ranks)]
    for c in conns:  # every rank is here: the steps start together, as after a rendezvous
        c.sendall(b"s")
    while True:
        got = [c.recv(1) for c in conns]
        if not all(got):
            return  # a rank ended: the run is over
        for c in conns:
            c.sendall(b"g")


def spin(ms):
    end = time.process_time() + ms / 1000.0
    while time.process_time() < end:
        pass


def rank(path, rank_id, steps, work_ms, pidfile):
    with open(pidfile, "w") as f:
        f.write(str(os.getpid()))
    nvtx = ctypes.CDLL(os.environ.get("PS_NVTX_LIB", "libnvToolsExt.so.1"))
    push = nvtx.nvtxRangePushA
    push.argtypes = [ctypes.c_char_p]
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    for _ in range(600):  # the barrier may start after this rank
        try:
            conn.connect(path)
            break
        except OSError:
            time.sleep(0.05)
    conn.recv(1)  # the start, outside every phase
    for _ in range(steps):
        push(b"generate_sequences")
        spin(5)
        nvtx.nvtxRangePop()
        push(b"update_actor")
        for _ in range(MICRO):
            spin(work_ms)
            conn.sendall(b"r")
            conn.recv(1)
        nvtx.nvtxRangePop()
    conn.close()


if __name__ == "__main__":
    if sys.argv[1] == "barrier":
        barrier(sys.argv[2], int(sys.argv[3]))
    else:
        rank(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), sys.argv[6])
