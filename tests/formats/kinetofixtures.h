#pragma once
// JSON texts for tst_kinetoreader, kept out of the test source because moc cannot tokenize raw
// string literals that contain quotes and brackets.

inline const char *const kNsFixture = R"({"schemaVersion": 1, "distributedInfo": {"rank": 3},
  "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 7, "tid": 8, "ts": 1713466870123456.789, "dur": 12.345},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1713466870123460.001, "dur": 0.999,
   "args": {"device": 0, "stream": 7, "correlation": 11}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 8, "ts": 1713466870123457.5, "dur": 1,
   "args": {"correlation": 11}}
  ]})";

inline const char *const kShapesFixture = R"([
 {"ph": "B", "cat": "user_annotation", "name": "outer", "pid": 9, "tid": 9, "ts": 100},
 {"ph": "B", "cat": "user_annotation", "name": "inner \"quoted\" \\ [x]", "pid": 9, "tid": 9, "ts": 110},
 {"ph": "E", "pid": 9, "tid": 9, "ts": 120},
 {"ph": "E", "pid": 9, "tid": 9, "ts": 200},
 {"ph": "i", "s": "g", "name": "Iteration Start", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 90},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 130, "dur": 5},
 {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 42, "pid": 9, "tid": 9, "ts": 130},
 {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 42, "pid": 1, "tid": 3, "ts": 140, "bp": "e"},
 {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 3, "ts": 140, "dur": 10},
 {"ph": "C", "name": "mem", "pid": 9, "ts": 150, "args": {"v": 1}}
])";

inline const char *const kGoodFixture =
    R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}]})";

inline const char *const kNoEventsFixture = R"({"a": 1})";

inline const char *const kBadEventFixture = R"({"traceEvents": [{"ph": "X", "ts": 1,, }]})";

// PyTorch's profile_memory=True samples: "[memory]" instants whose args give the caching
// allocator's state (Device Type 0 = CPU, 1 = CUDA). Two CUDA devices and a CPU sample; two
// samples of device 0 at one time (the later row wins).
inline const char *const kMemoryFixture = R"({"traceEvents": [
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 8, "ts": 100,
  "args": {"Total Reserved": 2097152, "Total Allocated": 1024, "Bytes": 1024, "Addr": 139, "Device Id": 0, "Device Type": 1}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 8, "ts": 105,
  "args": {"Total Reserved": 0, "Total Allocated": 64, "Bytes": 64, "Addr": 1, "Device Id": -1, "Device Type": 0}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 8, "ts": 110,
  "args": {"Total Reserved": 2097152, "Total Allocated": 5120, "Bytes": 4096, "Addr": 140, "Device Id": 0, "Device Type": 1}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 8, "ts": 110,
  "args": {"Total Reserved": 2097152, "Total Allocated": 4096, "Bytes": -1024, "Addr": 139, "Device Id": 0, "Device Type": 1}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 8, "ts": 120,
  "args": {"Total Reserved": 2097152, "Total Allocated": 512, "Bytes": 512, "Addr": 141, "Device Id": 1, "Device Type": 1}},
 {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 101, "dur": 5, "args": {"device": 0, "stream": 7}}
]})";
