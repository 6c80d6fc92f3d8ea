#include "core/trace/formats/pickledecoder.h"

#include "core/trace/persist/mappedfile.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <functional>
#include <new>
#include <unordered_map>

namespace ps::core::trace::formats {

namespace {

// Opcodes that import a name, call something or need out-of-band data: never executed.
const char *refusedOpcode(uint8_t op)
{
    switch (op) {
    case 'c':
        return "GLOBAL";
    case 0x93:
        return "STACK_GLOBAL";
    case 'R':
        return "REDUCE";
    case 'b':
        return "BUILD";
    case 'i':
        return "INST";
    case 'o':
        return "OBJ";
    case 0x81:
        return "NEWOBJ";
    case 0x92:
        return "NEWOBJ_EX";
    case 0x82:
        return "EXT1";
    case 0x83:
        return "EXT2";
    case 0x84:
        return "EXT4";
    case 'P':
        return "PERSID";
    case 'Q':
        return "BINPERSID";
    default:
        return nullptr;
    }
}

// Protocol 0 text opcodes: plain data, but never written by protocols 2-5.
const char *textOpcode(uint8_t op)
{
    switch (op) {
    case 'I':
        return "INT";
    case 'L':
        return "LONG";
    case 'F':
        return "FLOAT";
    case 'S':
        return "STRING";
    case 'V':
        return "UNICODE";
    case 'p':
        return "PUT";
    case 'g':
        return "GET";
    default:
        return nullptr;
    }
}

template <typename T> T loadLe(const uint8_t *p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v; // x86-64 and aarch64 are little-endian, as pickle's binary ints are
}

constexpr uint32_t kMaxShapeKeys = 64;
constexpr uint32_t kMaxShapes = (1u << 24) - 1;
constexpr size_t kReleaseStep = size_t(16) << 20;

} // namespace

class PickleBuilder
{
public:
    PickleBuilder(PickleDoc &doc, std::string_view bytes, const std::string &name, const DecodeOptions &options)
        : m_doc(doc), m_name(name), m_dropped(options.droppedKeys),
          m_begin(reinterpret_cast<const uint8_t *>(bytes.data())), m_p(m_begin), m_end(m_begin + bytes.size())
    {
    }
    std::function<void(size_t)> released; // called with the offset below which bytes are no longer read
    std::string run();

private:
    bool step(uint8_t op);
    bool stepScalar(uint8_t op);
    bool stepContainer(uint8_t op);
    bool stepStack(uint8_t op);
    bool refuse(uint8_t op);
    bool fail(const std::string &why);
    bool need(uint64_t n)
    {
        return uint64_t(m_end - m_p) >= n || fail("truncated: needs " + std::to_string(n) +
                                                  " more bytes, the file has " + std::to_string(m_end - m_p));
    }
    void push(PyValue v) { m_stack.push_back(v.bits); }
    bool pop(PyValue &v);
    bool top(PyValue &v);
    bool markStart(size_t &start);

    bool pushText(uint64_t tag, uint64_t size);
    bool pushLong(uint64_t size);
    void pushInt(int64_t v);
    PyValue intern(uint64_t tag, const char *s, uint32_t size);
    void growTextSlots();
    bool newNode(uint64_t tag, const uint64_t *items, size_t n, uint32_t &id);
    bool appendTo(PyValue target, const uint64_t *items, size_t n);
    bool appendToDict(uint32_t node, const uint64_t *items, size_t n);
    size_t dropPairs(const uint64_t *items, size_t n);
    uint32_t tailOf(uint32_t node) const
    {
        const auto it = m_tails.find(node);
        return it == m_tails.end() ? 0 : it->second;
    }
    bool appendSegment(uint32_t node, const uint64_t *items, size_t nItems, size_t units, uint32_t width);
    uint32_t shapeFor(const uint64_t *pairs, size_t n);
    bool memoPut(uint64_t index);
    bool memoGet(uint64_t index);

    PickleDoc &m_doc;
    const std::string &m_name;
    const std::vector<std::string> &m_dropped;
    std::vector<uint64_t> m_droppedKeys; // the dropped keys' values (interned str) once the file has them
    std::vector<uint64_t> m_kept;        // the pairs of one SETITEMS that are not dropped
    const uint8_t *m_begin, *m_p, *m_end;
    const uint8_t *m_op = nullptr;
    size_t m_releasedTo = 0;
    PodArray<uint64_t> m_stack;
    PodArray<uint64_t> m_marks;
    PodArray<uint64_t> m_memo;
    // Per node appended to in several segments: index+1 of its last one (absent = the node itself).
    std::unordered_map<uint32_t, uint32_t> m_tails;
    PodArray<uint32_t> m_shapeSlots;
    bool m_stopped = false;
    std::string m_error;
};

bool PickleBuilder::fail(const std::string &why)
{
    if (m_error.empty())
        m_error = m_name + ": byte " + std::to_string((m_op ? m_op : m_p) - m_begin) + ": " + why;
    return false;
}

bool PickleBuilder::pop(PyValue &v)
{
    const size_t floor = m_marks.empty() ? 0 : m_marks.back();
    if (m_stack.size() <= floor)
        return fail("the stack is empty where a value was expected");
    v.bits = m_stack[m_stack.size() - 1];
    m_stack.shrink(m_stack.size() - 1);
    return true;
}

bool PickleBuilder::top(PyValue &v)
{
    const size_t floor = m_marks.empty() ? 0 : m_marks.back();
    if (m_stack.size() <= floor)
        return fail("the stack is empty where a value was expected");
    v.bits = m_stack[m_stack.size() - 1];
    return true;
}

bool PickleBuilder::markStart(size_t &start)
{
    if (m_marks.empty())
        return fail("no MARK before an opcode that needs one");
    start = m_marks.back();
    m_marks.shrink(m_marks.size() - 1);
    return true;
}

void PickleBuilder::growTextSlots()
{
    PickleDoc &d = m_doc;
    const size_t n = d.m_textSlots.empty() ? 1024 : d.m_textSlots.size() * 2;
    d.m_textSlots.release();
    d.m_textSlots.resizeZero(n);
    for (size_t id = 0; id < d.m_texts.size(); ++id)
        for (size_t i = d.m_texts[id].hash & (n - 1);; i = (i + 1) & (n - 1))
            if (!d.m_textSlots[i]) {
                d.m_textSlots[i] = uint32_t(id + 1);
                break;
            }
}

PyValue PickleBuilder::intern(uint64_t tag, const char *s, uint32_t size)
{
    PickleDoc &d = m_doc;
    if (d.m_texts.size() * 2 >= d.m_textSlots.size())
        growTextSlots();
    const std::string_view sv(s, size);
    const uint32_t hash = uint32_t(std::hash<std::string_view>()(sv));
    if (const uint32_t slot = d.lookupText(sv, hash))
        return PyValue::make(tag, slot - 1);
    const uint32_t id = uint32_t(d.m_texts.size());
    if (tag == pytag::Str && std::find(m_dropped.begin(), m_dropped.end(), sv) != m_dropped.end())
        m_droppedKeys.push_back(PyValue::make(pytag::Str, id).bits);
    d.m_texts.push_back({d.m_textBytes.size(), size, hash});
    d.m_textBytes.append(s, size);
    const size_t mask = d.m_textSlots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask)
        if (!d.m_textSlots[i]) {
            d.m_textSlots[i] = id + 1;
            break;
        }
    return PyValue::make(tag, id);
}

bool PickleBuilder::pushText(uint64_t tag, uint64_t size)
{
    if (!need(size))
        return false;
    if (size > UINT32_MAX)
        return fail("a string of " + std::to_string(size) + " bytes (at most 4 GiB are read)");
    if (m_doc.m_texts.size() >= UINT32_MAX - 1)
        return fail("more than 2^32 distinct strings");
    push(intern(tag, reinterpret_cast<const char *>(m_p), uint32_t(size)));
    m_p += size;
    return true;
}

void PickleBuilder::pushInt(int64_t v)
{
    constexpr int64_t lim = int64_t(1) << 59;
    if (v >= -lim && v < lim) {
        push(PyValue{(uint64_t(v) << 4) | pytag::SmallInt});
        return;
    }
    push(PyValue::make(pytag::BoxedInt, m_doc.m_ints.size()));
    m_doc.m_ints.push_back(v);
}

// LONG1/LONG4: little-endian two's complement of `size` bytes. Ints that fit 64 bits are ints;
// others keep their bytes (a big int no snapshot field needs).
bool PickleBuilder::pushLong(uint64_t size)
{
    if (!need(size))
        return false;
    const uint8_t *b = m_p;
    m_p += size;
    if (size == 0) {
        pushInt(0);
        return true;
    }
    const bool negative = b[size - 1] & 0x80;
    bool fits = true;
    for (uint64_t i = 8; i < size && fits; ++i)
        fits = b[i] == (negative ? 0xff : 0x00);
    if (fits && size >= 8)
        fits = bool(b[7] & 0x80) == negative;
    if (!fits) {
        if (size > UINT32_MAX)
            return fail("an integer of " + std::to_string(size) + " bytes");
        push(intern(pytag::BigInt, reinterpret_cast<const char *>(b), uint32_t(size)));
        return true;
    }
    uint64_t v = negative ? ~uint64_t(0) : 0;
    for (uint64_t i = 0; i < size && i < 8; ++i) {
        v &= ~(uint64_t(0xff) << (8 * i));
        v |= uint64_t(b[i]) << (8 * i);
    }
    pushInt(int64_t(v));
    return true;
}

bool PickleBuilder::newNode(uint64_t tag, const uint64_t *items, size_t n, uint32_t &id)
{
    PickleDoc &d = m_doc;
    if (d.m_nodes.size() >= UINT32_MAX - 1)
        return fail("more than 2^32 containers");
    id = uint32_t(d.m_nodes.size());
    d.m_nodes.push_back({});
    if (n && !appendSegment(id, items, n, n, 1))
        return false;
    push(PyValue::make(tag, id));
    return true;
}

// Appends `nItems` values (`units` items or pairs of `width` values each) to a node: extends its
// last segment when that segment ends where the arena ends, else chains a new one.
bool PickleBuilder::appendSegment(uint32_t node, const uint64_t *items, size_t nItems, size_t units, uint32_t width)
{
    PickleDoc &d = m_doc;
    const uint64_t end = d.m_items.size();
    if (units > UINT32_MAX)
        return fail("a container of more than 2^32 items");
    if (end + nItems > PickleDoc::kOffsetMask)
        return fail("more than 2^40 values");
    PickleDoc::Node &nd = d.m_nodes[node];
    const uint32_t tail = tailOf(node);
    if (tail == 0 && nd.count == 0) {
        nd.first = end; // a fresh node: this is its first segment
        nd.count = uint32_t(units);
    } else {
        const bool shaped = tail == 0 && d.shapeOf(nd) != 0;
        uint64_t first = tail ? d.m_segs[tail - 1].first : (nd.first & PickleDoc::kOffsetMask);
        uint32_t &count = tail ? d.m_segs[tail - 1].count : nd.count;
        if (!shaped && first + uint64_t(count) * width == end && count + units <= UINT32_MAX) {
            count += uint32_t(units);
        } else {
            if (d.m_segs.size() >= UINT32_MAX - 1)
                return fail("more than 2^32 appends");
            d.m_segs.push_back({end, uint32_t(units), 0});
            const uint32_t seg = uint32_t(d.m_segs.size());
            (tail ? d.m_segs[tail - 1].next : nd.more) = seg;
            m_tails[node] = seg;
        }
    }
    d.m_items.append(items, nItems);
    return true;
}

// The shape of a dict's first SETITEMS when every key is a str (at most kMaxShapeKeys, none
// repeated); 0 otherwise.
uint32_t PickleBuilder::shapeFor(const uint64_t *pairs, size_t n)
{
    if (n == 0 || n > kMaxShapeKeys)
        return 0;
    uint64_t h = n;
    for (size_t i = 0; i < n; ++i) {
        if ((pairs[2 * i] & 15) != pytag::Str)
            return 0;
        h = (h ^ (pairs[2 * i] >> 4)) * 0x9E3779B97F4A7C15ull;
    }
    PickleDoc &d = m_doc;
    if (d.m_shapes.size() * 2 >= m_shapeSlots.size()) {
        const size_t cap = m_shapeSlots.empty() ? 256 : m_shapeSlots.size() * 2;
        m_shapeSlots.release();
        m_shapeSlots.resizeZero(cap);
        for (uint32_t s = 1; s < d.m_shapes.size(); ++s) {
            uint64_t hs = d.m_shapes[s].count;
            for (uint32_t i = 0; i < d.m_shapes[s].count; ++i)
                hs = (hs ^ d.m_shapeKeys[d.m_shapes[s].offset + i]) * 0x9E3779B97F4A7C15ull;
            for (size_t i = (hs >> 32) & (cap - 1);; i = (i + 1) & (cap - 1))
                if (!m_shapeSlots[i]) {
                    m_shapeSlots[i] = s;
                    break;
                }
        }
    }
    const size_t mask = m_shapeSlots.size() - 1;
    size_t slot = (h >> 32) & mask;
    for (;; slot = (slot + 1) & mask) {
        const uint32_t s = m_shapeSlots[slot];
        if (!s)
            break;
        const PickleDoc::ShapeRec &r = d.m_shapes[s];
        bool same = r.count == n;
        for (size_t i = 0; same && i < n; ++i)
            same = d.m_shapeKeys[r.offset + i] == uint32_t(pairs[2 * i] >> 4);
        if (same)
            return s;
    }
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j)
            if (pairs[2 * i] == pairs[2 * j])
                return 0;
    if (d.m_shapes.size() >= kMaxShapes || d.m_shapeKeys.size() + n > UINT32_MAX)
        return 0;
    const uint32_t s = uint32_t(d.m_shapes.size());
    d.m_shapes.push_back({uint32_t(d.m_shapeKeys.size()), uint32_t(n)});
    for (size_t i = 0; i < n; ++i)
        d.m_shapeKeys.push_back(uint32_t(pairs[2 * i] >> 4));
    m_shapeSlots[slot] = s;
    return s;
}

// APPEND(S), SETITEM(S), ADDITEMS: `n` values onto the container `target`.
bool PickleBuilder::appendTo(PyValue target, const uint64_t *items, size_t n)
{
    const uint64_t tag = target.tag();
    const uint32_t node = uint32_t(target.payload());
    if (tag == pytag::List || tag == pytag::Set)
        return n == 0 || appendSegment(node, items, n, n, 1);
    if (tag != pytag::Dict)
        return fail("items appended to something that is not a list, dict or set");
    if (n % 2)
        return fail("SETITEMS with a key but no value");
    if (m_droppedKeys.empty())
        return appendToDict(node, items, n);
    const size_t kept = dropPairs(items, n);
    return appendToDict(node, m_kept.data(), kept);
}

// The pairs of `items` whose key is not dropped, into m_kept; returns how many values.
size_t PickleBuilder::dropPairs(const uint64_t *items, size_t n)
{
    m_kept.clear();
    for (size_t i = 0; i + 1 < n; i += 2)
        if (std::find(m_droppedKeys.begin(), m_droppedKeys.end(), items[i]) == m_droppedKeys.end()) {
            m_kept.push_back(items[i]);
            m_kept.push_back(items[i + 1]);
        }
    return m_kept.size();
}

bool PickleBuilder::appendToDict(uint32_t node, const uint64_t *items, size_t n)
{
    if (n == 0)
        return true;
    PickleDoc &d = m_doc;
    PickleDoc::Node &nd = d.m_nodes[node];
    if (nd.count == 0 && tailOf(node) == 0) {
        if (const uint32_t shape = shapeFor(items, n / 2)) {
            if (d.m_items.size() + n / 2 > PickleDoc::kOffsetMask)
                return fail("more than 2^40 values");
            nd.first = d.m_items.size() | (uint64_t(shape) << 40);
            nd.count = uint32_t(n / 2);
            uint64_t *out = d.m_items.extend(n / 2);
            for (size_t i = 0; i < n / 2; ++i)
                out[i] = items[2 * i + 1];
            return true;
        }
    }
    return appendSegment(node, items, n, n / 2, 2);
}

bool PickleBuilder::memoPut(uint64_t index)
{
    PyValue v;
    if (!top(v))
        return false;
    // Writers number the memo densely; an index beyond the bytes read so far is hostile.
    if (index > uint64_t(m_p - m_begin))
        return fail("memo index " + std::to_string(index) + " beyond any the file can have stored");
    if (index >= m_memo.size()) {
        const size_t old = m_memo.size();
        m_memo.extend(index + 1 - old);
        for (size_t i = old; i <= index; ++i)
            m_memo[i] = pytag::Absent;
    }
    m_memo[index] = v.bits;
    return true;
}

bool PickleBuilder::memoGet(uint64_t index)
{
    if (index >= m_memo.size() || m_memo[index] == pytag::Absent)
        return fail("memo index " + std::to_string(index) + " was never stored");
    m_stack.push_back(m_memo[index]);
    return true;
}

bool PickleBuilder::step(uint8_t op)
{
    switch (op) {
    case 0x80: { // PROTO
        if (!need(1))
            return false;
        const uint8_t proto = *m_p++;
        return proto <= 5 || fail("pickle protocol " + std::to_string(proto) + " (protocols up to 5 are read)");
    }
    case 0x95: { // FRAME: the opcodes of the frame follow inline
        if (!need(8))
            return false;
        const uint64_t size = loadLe<uint64_t>(m_p);
        m_p += 8;
        return size <= uint64_t(m_end - m_p) || fail("truncated: a frame of " + std::to_string(size) +
                                                     " bytes, the file has " + std::to_string(m_end - m_p));
    }
    case '.': { // STOP
        PyValue v;
        if (!pop(v))
            return false;
        m_doc.m_root = v;
        m_stopped = true;
        return true;
    }
    default:
        return stepScalar(op);
    }
}

bool PickleBuilder::stepScalar(uint8_t op)
{
    switch (op) {
    case 'N':
        push(PyValue{pytag::None});
        return true;
    case 0x88:
        push(PyValue{pytag::True});
        return true;
    case 0x89:
        push(PyValue{pytag::False});
        return true;
    case 'J': // BININT
        if (!need(4))
            return false;
        pushInt(loadLe<int32_t>(m_p));
        m_p += 4;
        return true;
    case 'K': // BININT1
        if (!need(1))
            return false;
        pushInt(*m_p++);
        return true;
    case 'M': // BININT2
        if (!need(2))
            return false;
        pushInt(loadLe<uint16_t>(m_p));
        m_p += 2;
        return true;
    case 0x8a: // LONG1
        return need(1) && pushLong(*m_p++);
    case 0x8b: { // LONG4
        if (!need(4))
            return false;
        const int32_t n = loadLe<int32_t>(m_p);
        m_p += 4;
        return n >= 0 ? pushLong(uint64_t(n)) : fail("LONG4 with a negative length");
    }
    case 'G': { // BINFLOAT, big-endian
        if (!need(8))
            return false;
        const uint64_t raw = __builtin_bswap64(loadLe<uint64_t>(m_p));
        m_p += 8;
        push(PyValue::make(pytag::Float, m_doc.m_floats.size()));
        m_doc.m_floats.push_back(std::bit_cast<double>(raw));
        return true;
    }
    case 0x8c: // SHORT_BINUNICODE
        return need(1) && pushText(pytag::Str, *m_p++);
    case 'X':   // BINUNICODE
    case 'T': { // BINSTRING (a Python 2 str, read as text as Python 3 does by default)
        if (!need(4))
            return false;
        const int64_t n = op == 'X' ? int64_t(loadLe<uint32_t>(m_p)) : int64_t(loadLe<int32_t>(m_p));
        m_p += 4;
        return n >= 0 ? pushText(pytag::Str, uint64_t(n)) : fail("BINSTRING with a negative length");
    }
    case 'U': // SHORT_BINSTRING
        return need(1) && pushText(pytag::Str, *m_p++);
    case 0x8d:   // BINUNICODE8
    case 0x8e:   // BINBYTES8
    case 0x96: { // BYTEARRAY8
        if (!need(8))
            return false;
        const uint64_t n = loadLe<uint64_t>(m_p);
        m_p += 8;
        return pushText(op == 0x8d ? pytag::Str : pytag::Bytes, n);
    }
    case 'C': // SHORT_BINBYTES
        return need(1) && pushText(pytag::Bytes, *m_p++);
    case 'B': // BINBYTES
        if (!need(4))
            return false;
        m_p += 4;
        return pushText(pytag::Bytes, loadLe<uint32_t>(m_p - 4));
    default:
        return stepContainer(op);
    }
}

bool PickleBuilder::stepContainer(uint8_t op)
{
    uint32_t id = 0;
    size_t start = 0;
    PyValue a, b;
    switch (op) {
    case ']': // EMPTY_LIST
        return newNode(pytag::List, nullptr, 0, id);
    case '}': // EMPTY_DICT
        return newNode(pytag::Dict, nullptr, 0, id);
    case 0x8f: // EMPTY_SET
        return newNode(pytag::Set, nullptr, 0, id);
    case ')': // EMPTY_TUPLE
        return newNode(pytag::Tuple, nullptr, 0, id);
    case 0x85:   // TUPLE1
    case 0x86:   // TUPLE2
    case 0x87: { // TUPLE3
        const size_t n = size_t(op - 0x84);
        const size_t floor = m_marks.empty() ? 0 : m_marks.back();
        if (m_stack.size() < floor + n)
            return fail("the stack has fewer values than a tuple of " + std::to_string(n) + " needs");
        uint64_t items[3];
        std::memcpy(items, m_stack.data() + m_stack.size() - n, n * 8);
        m_stack.shrink(m_stack.size() - n);
        return newNode(pytag::Tuple, items, n, id);
    }
    case 't':    // TUPLE
    case 'l':    // LIST
    case 0x91: { // FROZENSET
        if (!markStart(start))
            return false;
        const uint64_t tag = op == 't' ? pytag::Tuple : op == 'l' ? pytag::List : pytag::Set;
        if (!newNode(tag, m_stack.data() + start, m_stack.size() - start, id))
            return false;
        const uint64_t made = m_stack.back();
        m_stack.shrink(start);
        m_stack.push_back(made);
        return true;
    }
    case 'd': { // DICT
        if (!markStart(start) || !newNode(pytag::Dict, nullptr, 0, id))
            return false;
        const PyValue dict{m_stack.back()};
        if (!appendTo(dict, m_stack.data() + start, m_stack.size() - 1 - start))
            return false;
        m_stack.shrink(start);
        push(dict);
        return true;
    }
    case 'a': // APPEND
        return pop(a) && top(b) && appendTo(b, &a.bits, 1);
    case 's': { // SETITEM
        PyValue key;
        if (!pop(a) || !pop(key) || !top(b))
            return false;
        const uint64_t pair[2] = {key.bits, a.bits};
        return appendTo(b, pair, 2);
    }
    case 'e':    // APPENDS
    case 'u':    // SETITEMS
    case 0x90: { // ADDITEMS
        if (!markStart(start))
            return false;
        const size_t floor = m_marks.empty() ? 0 : m_marks.back();
        if (start == 0 || start <= floor)
            return fail("no container below the MARK");
        if (!appendTo(PyValue{m_stack[start - 1]}, m_stack.data() + start, m_stack.size() - start))
            return false;
        m_stack.shrink(start);
        return true;
    }
    default:
        return stepStack(op);
    }
}

bool PickleBuilder::stepStack(uint8_t op)
{
    PyValue v;
    switch (op) {
    case '(': // MARK
        if (m_marks.size() >= kMaxMarkDepth)
            return fail("marks nested deeper than " + std::to_string(kMaxMarkDepth));
        m_marks.push_back(m_stack.size());
        return true;
    case '0': // POP
        return pop(v);
    case '1': { // POP_MARK
        size_t start = 0;
        if (!markStart(start))
            return false;
        m_stack.shrink(start);
        return true;
    }
    case '2': // DUP
        if (!top(v))
            return false;
        push(v);
        return true;
    case 0x94: // MEMOIZE
        return memoPut(m_memo.size());
    case 'q': // BINPUT
        return need(1) && memoPut(*m_p++);
    case 'r': // LONG_BINPUT
        if (!need(4))
            return false;
        m_p += 4;
        return memoPut(loadLe<uint32_t>(m_p - 4));
    case 'h': // BINGET
        return need(1) && memoGet(*m_p++);
    case 'j': // LONG_BINGET
        if (!need(4))
            return false;
        m_p += 4;
        return memoGet(loadLe<uint32_t>(m_p - 4));
    default:
        return refuse(op);
    }
}

bool PickleBuilder::refuse(uint8_t op)
{
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", op);
    if (const char *name = refusedOpcode(op))
        return fail(std::string("opcode ") + name + " (" + hex +
                    ") imports or calls Python code; only plain data is read, so the file is refused "
                    "and nothing in it was run");
    if (op == 0x97 || op == 0x98)
        return fail(std::string("opcode ") + (op == 0x97 ? "NEXT_BUFFER" : "READONLY_BUFFER") + " (" + hex +
                    ") needs out-of-band buffers, which a file cannot carry");
    if (const char *name = textOpcode(op))
        return fail(std::string("text opcode ") + name + " (" + hex + ") of protocol 0 (protocols 1-5 are read)");
    return fail(std::string("unknown opcode ") + hex + ": not a pickle, or a corrupted one");
}

std::string PickleBuilder::run()
{
    try {
        while (!m_stopped) {
            if (m_p >= m_end) {
                m_op = nullptr;
                fail("truncated: the file ends before the STOP opcode");
                break;
            }
            m_op = m_p;
            if (released && size_t(m_p - m_begin) >= m_releasedTo + kReleaseStep) {
                m_releasedTo = size_t(m_p - m_begin);
                released(m_releasedTo);
            }
            if (!step(*m_p++))
                break;
        }
    } catch (const std::bad_alloc &) {
        fail("out of memory");
    }
    m_stack.release();
    m_memo.release();
    m_tails.clear();
    m_shapeSlots.release();
    if (m_error.empty()) {
        PickleDoc &d = m_doc;
        d.m_items.fit();
        d.m_nodes.fit();
        d.m_textBytes.fit();
        d.m_texts.fit();
    }
    return m_error;
}

std::string decodePickle(std::string_view bytes, const std::string &name, PickleDoc &doc, const DecodeOptions &options)
{
    doc = PickleDoc();
    PickleBuilder b(doc, bytes, name, options);
    return b.run();
}

std::string decodePickleFile(const std::string &path, PickleDoc &doc, const DecodeOptions &options)
{
    Mapping map;
    std::string error;
    switch (mapFile(path, map, error)) {
    case MapStatus::Mapped:
        break;
    case MapStatus::Empty:
        return path + ": empty file, not a pickle";
    default:
        return path + ": cannot read: " + error;
    }
    ::madvise(map.addr, map.size, MADV_SEQUENTIAL);
    doc = PickleDoc();
    PickleBuilder b(doc, std::string_view(map.data(), map.size), path, options);
    const size_t page = size_t(::sysconf(_SC_PAGESIZE));
    b.released = [&](size_t offset) { ::madvise(map.addr, offset / page * page, MADV_DONTNEED); };
    return b.run();
}

} // namespace ps::core::trace::formats
