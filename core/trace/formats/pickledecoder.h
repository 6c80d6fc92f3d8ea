#pragma once
// A decoder for the pickles that hold only plain data: what torch.cuda.memory._dump_snapshot
// (Python's pickle, protocols 4/5) and the TorchScript pickler (protocol 2) write. It reads the
// opcodes of protocols 2-5 (and the binary ones of 1) for dicts, lists, tuples, sets, str,
// bytes, ints (big ones too), floats, bools and None, with the memo and frames.
//
// Every opcode that imports or calls (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ,
// NEWOBJ_EX, EXT1/2/4, PERSID, BINPERSID) is refused with the file and byte offset: nothing in
// the file is ever run, where Python's own pickle.load would run it. Sizes and counts are
// checked against the bytes that remain and marks nest at most kMaxMarkDepth deep, so a hostile
// file fails fast at memory in proportion to its size.

#include "core/trace/formats/pickledoc.h"

#include <string>
#include <string_view>
#include <vector>

namespace ps::core::trace::formats {

inline constexpr size_t kMaxMarkDepth = 1000;

struct DecodeOptions
{
    // Dict entries whose key is one of these strings are left out of the document, for a reader
    // that never reads them (a snapshot's per-entry compile_context and user_metadata): millions
    // of values it need not hold.
    std::vector<std::string> droppedKeys;
};

// Decodes `bytes` into `doc`. Returns "" or "NAME: byte OFFSET: reason".
std::string decodePickle(std::string_view bytes, const std::string &name, PickleDoc &doc,
                         const DecodeOptions &options = {});

// Maps the file read-only and decodes it, handing the pages behind the cursor back to the
// kernel as it goes (strings are copied into the document), so the file does not stay resident.
// Returns "" or "PATH: reason".
std::string decodePickleFile(const std::string &path, PickleDoc &doc, const DecodeOptions &options = {});

} // namespace ps::core::trace::formats
