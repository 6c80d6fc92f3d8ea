#pragma once
// The plain data of a Python pickle (dicts, lists, tuples, sets, str, bytes, int including big
// ints, float, bool, None), decoded by pickledecoder.h into arenas: no heap allocation per value.
//
// A value is 8 bytes: a tag and a 60-bit payload (small ints inline; other ints, floats and big
// ints boxed; strings by interned id; containers by node id). Containers keep identity, as
// pickle's memo shares them: the frames lists PyTorch shares between trace entries are one node.
// A dict whose keys are all strings stores its key sequence once as a shape (trace entries all
// share a few shapes) and only its values per dict; other dicts store key/value pairs.
//
// The memo can make the data a graph that shares (or, in hostile files, cycles through) nodes:
// a generic walk must bound its depth (kMaxWalkDepth) rather than recurse blindly.

#include "core/trace/formats/picklearray.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ps::core::trace::formats {

enum class PyKind : uint8_t { None, Bool, Int, BigInt, Float, Str, Bytes, List, Tuple, Dict, Set, Absent };

// The low 4 bits of a PyValue.
namespace pytag {
enum : uint64_t {
    None = 0,
    False = 1,
    True = 2,
    SmallInt = 3,
    BoxedInt = 4,
    BigInt = 5,
    Float = 6,
    Str = 7,
    Bytes = 8,
    List = 9,
    Tuple = 10,
    Dict = 11,
    Set = 12,
    Absent = 15
};
} // namespace pytag

struct PyValue
{
    uint64_t bits = pytag::Absent;

    static PyValue make(uint64_t tag, uint64_t payload) { return PyValue{(payload << 4) | tag}; }
    uint64_t tag() const { return bits & 15; }
    uint64_t payload() const { return bits >> 4; }
    bool absent() const { return tag() == pytag::Absent; }
    bool operator==(const PyValue &o) const { return bits == o.bits; }
};

class PickleDoc
{
public:
    static constexpr int kMaxWalkDepth = 256;

    PyValue root() const { return m_root; }

    PyKind kind(PyValue v) const;
    // Integers that fit int64 (not bools); nullopt for anything else.
    std::optional<int64_t> toInt(PyValue v) const;
    // Ints and floats as double; nullopt otherwise.
    std::optional<double> toDouble(PyValue v) const;
    std::optional<bool> toBool(PyValue v) const;
    // Text of a str (UTF-8) or bytes; empty for other kinds.
    std::string_view text(PyValue v) const;
    // Interned id of a str, bytes or big int's bytes; equal text means equal id.
    uint32_t textId(PyValue v) const { return uint32_t(v.payload()); }
    bool isStr(PyValue v) const { return kind(v) == PyKind::Str; }
    // The id of an interned string, if the file holds it (a key lookup that cannot match
    // otherwise).
    std::optional<uint32_t> findText(std::string_view s) const;

    bool isContainer(PyValue v) const;
    // Containers are numbered 0..containerCount()-1 in the order the file makes them; the memo
    // shares a container by handing out the same number again. A reader that converts each
    // container it walks into a record of its own asks for the number to convert it once only:
    // what the memo shares must not multiply what the file's bytes can hold.
    size_t containerCount() const { return m_nodes.size(); }
    std::optional<uint32_t> containerNumber(PyValue v) const
    {
        return isContainer(v) ? std::optional<uint32_t>(nodeOf(v)) : std::nullopt;
    }
    // Items of a list, tuple or set; pairs of a dict. 0 for other kinds.
    size_t size(PyValue v) const;
    // The value for a str key (by interned id); the last one set wins, as in Python. Absent when
    // `dict` is not a dict or lacks the key.
    PyValue get(PyValue dict, uint32_t keyId) const;
    PyValue get(PyValue dict, std::string_view key) const;

    // Calls f(item) for each item of a list, tuple or set, in order; stops when f returns false.
    template <typename F> void forEach(PyValue container, F &&f) const;
    // Calls f(key, value) for each pair of a dict, in insertion order; stops when f returns false.
    template <typename F> void forEachItem(PyValue dict, F &&f) const;

    // Bytes the document holds in RAM.
    size_t residentBytes() const;

    // For a reader that walks the document once, in file order, and converts it: hands back to
    // the kernel the pages of the item and node arenas that hold what the file completed before
    // `container` (nothing when it is not a container). Containers are numbered and laid out in
    // the order the file makes them, so everything the walk has passed lies below the current
    // container; what is released reads as None / empty afterwards (memory-safe, never reused by
    // such a reader).
    void releaseBefore(PyValue container);

private:
    friend class PickleBuilder;
    struct Node
    {
        uint64_t first = 0; // items' offset (low 40 bits), dict shape (high 24 bits, 0 = pairs)
        uint32_t count = 0; // items (or pairs) in the first segment
        uint32_t more = 0;  // index+1 of the next segment in m_segs, 0 = none
    };
    struct Segment
    {
        uint64_t first = 0;
        uint32_t count = 0;
        uint32_t next = 0;
    };
    struct TextRec
    {
        uint64_t offset = 0;
        uint32_t size = 0;
        uint32_t hash = 0;
    };
    struct ShapeRec
    {
        uint32_t offset = 0; // into m_shapeKeys
        uint32_t count = 0;
    };
    static constexpr uint64_t kOffsetMask = (uint64_t(1) << 40) - 1;

    uint32_t nodeOf(PyValue v) const { return uint32_t(v.payload()); }
    uint32_t shapeOf(const Node &n) const { return uint32_t(n.first >> 40); }
    uint32_t lookupText(std::string_view s, uint32_t hash) const;

    PyValue m_root;
    PodArray<uint64_t> m_items; // values of every container
    PodArray<Node> m_nodes;
    PodArray<Segment> m_segs; // continuation segments (a list appended to in several batches)
    PodArray<int64_t> m_ints; // ints beyond 60 bits
    PodArray<double> m_floats;
    PodArray<char> m_textBytes;
    PodArray<TextRec> m_texts;
    PodArray<uint32_t> m_textSlots; // open addressing: text id + 1, 0 = empty
    PodArray<uint32_t> m_shapeKeys; // text ids
    PodArray<ShapeRec> m_shapes;    // [0] unused: shape 0 means "pairs"
};

template <typename F> void PickleDoc::forEach(PyValue container, F &&f) const
{
    const PyKind k = kind(container);
    if (k != PyKind::List && k != PyKind::Tuple && k != PyKind::Set)
        return;
    const Node &n = m_nodes[nodeOf(container)];
    uint64_t first = n.first & kOffsetMask;
    uint32_t count = n.count;
    uint32_t more = n.more;
    for (;;) {
        for (uint32_t i = 0; i < count; ++i)
            if (!f(PyValue{m_items[first + i]}))
                return;
        if (!more)
            return;
        const Segment &s = m_segs[more - 1];
        first = s.first;
        count = s.count;
        more = s.next;
    }
}

template <typename F> void PickleDoc::forEachItem(PyValue dict, F &&f) const
{
    if (kind(dict) != PyKind::Dict)
        return;
    const Node &n = m_nodes[nodeOf(dict)];
    const uint32_t shape = shapeOf(n);
    const uint64_t first = n.first & kOffsetMask;
    if (shape) {
        const ShapeRec &s = m_shapes[shape];
        for (uint32_t i = 0; i < n.count; ++i)
            if (!f(PyValue::make(pytag::Str, m_shapeKeys[s.offset + i]), PyValue{m_items[first + i]}))
                return;
    } else {
        for (uint32_t i = 0; i < n.count; ++i)
            if (!f(PyValue{m_items[first + 2 * i]}, PyValue{m_items[first + 2 * i + 1]}))
                return;
    }
    for (uint32_t more = n.more; more;) {
        const Segment &s = m_segs[more - 1];
        for (uint32_t i = 0; i < s.count; ++i)
            if (!f(PyValue{m_items[s.first + 2 * i]}, PyValue{m_items[s.first + 2 * i + 1]}))
                return;
        more = s.next;
    }
}

} // namespace ps::core::trace::formats
