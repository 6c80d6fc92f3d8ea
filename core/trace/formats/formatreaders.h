#pragma once
// The readers of core/trace/formats: rocprofv3 rocpd SQLite, PyTorch profiler (Kineto) JSON,
// Ascend torch_npu / msprof DB, and raw Nsight Systems reports (.nsys-rep, converted with nsys).

#include "core/trace/read/tracereader.h"

namespace ps::core::trace {

// Registers every reader of this folder with `registry` (the nsys SQLite reader is built in).
// They probe before it: their probes look at the schema, while nsys's accepts any SQLite file.
void addFormatReaders(ReaderRegistry &registry);

} // namespace ps::core::trace
