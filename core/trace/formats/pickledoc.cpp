#include "core/trace/formats/pickledoc.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <functional>

namespace ps::core::trace::formats {

PyKind PickleDoc::kind(PyValue v) const
{
    switch (v.tag()) {
    case pytag::None:
        return PyKind::None;
    case pytag::False:
    case pytag::True:
        return PyKind::Bool;
    case pytag::SmallInt:
    case pytag::BoxedInt:
        return PyKind::Int;
    case pytag::BigInt:
        return PyKind::BigInt;
    case pytag::Float:
        return PyKind::Float;
    case pytag::Str:
        return PyKind::Str;
    case pytag::Bytes:
        return PyKind::Bytes;
    case pytag::List:
        return PyKind::List;
    case pytag::Tuple:
        return PyKind::Tuple;
    case pytag::Dict:
        return PyKind::Dict;
    case pytag::Set:
        return PyKind::Set;
    default:
        return PyKind::Absent;
    }
}

std::optional<int64_t> PickleDoc::toInt(PyValue v) const
{
    if (v.tag() == pytag::SmallInt)
        return int64_t(v.bits) >> 4; // arithmetic shift restores the sign
    if (v.tag() == pytag::BoxedInt)
        return m_ints[v.payload()];
    return std::nullopt;
}

std::optional<double> PickleDoc::toDouble(PyValue v) const
{
    if (v.tag() == pytag::Float)
        return m_floats[v.payload()];
    if (auto i = toInt(v))
        return double(*i);
    return std::nullopt;
}

std::optional<bool> PickleDoc::toBool(PyValue v) const
{
    if (v.tag() == pytag::True || v.tag() == pytag::False)
        return v.tag() == pytag::True;
    return std::nullopt;
}

std::string_view PickleDoc::text(PyValue v) const
{
    if (v.tag() != pytag::Str && v.tag() != pytag::Bytes && v.tag() != pytag::BigInt)
        return {};
    const TextRec &t = m_texts[v.payload()];
    return {m_textBytes.data() + t.offset, t.size};
}

uint32_t PickleDoc::lookupText(std::string_view s, uint32_t hash) const
{
    const size_t mask = m_textSlots.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        const uint32_t slot = m_textSlots[i];
        if (!slot)
            return 0;
        const TextRec &t = m_texts[slot - 1];
        if (t.hash == hash && std::string_view(m_textBytes.data() + t.offset, t.size) == s)
            return slot;
    }
}

std::optional<uint32_t> PickleDoc::findText(std::string_view s) const
{
    if (m_textSlots.empty())
        return std::nullopt;
    const uint32_t slot = lookupText(s, uint32_t(std::hash<std::string_view>()(s)));
    if (!slot)
        return std::nullopt;
    return slot - 1;
}

bool PickleDoc::isContainer(PyValue v) const
{
    const uint64_t t = v.tag();
    return t == pytag::List || t == pytag::Tuple || t == pytag::Dict || t == pytag::Set;
}

size_t PickleDoc::size(PyValue v) const
{
    if (!isContainer(v))
        return 0;
    const Node &n = m_nodes[nodeOf(v)];
    size_t total = n.count;
    for (uint32_t more = n.more; more; more = m_segs[more - 1].next)
        total += m_segs[more - 1].count;
    return total;
}

PyValue PickleDoc::get(PyValue dict, uint32_t keyId) const
{
    PyValue found;
    if (dict.tag() != pytag::Dict)
        return found;
    const Node &n = m_nodes[nodeOf(dict)];
    if (const uint32_t shape = shapeOf(n)) {
        // A shape's keys are unique; later segments (pairs) may still override them.
        const ShapeRec &s = m_shapes[shape];
        for (uint32_t i = 0; i < n.count; ++i)
            if (m_shapeKeys[s.offset + i] == keyId) {
                found = PyValue{m_items[(n.first & kOffsetMask) + i]};
                break;
            }
        if (!n.more)
            return found;
    }
    const PyValue key = PyValue::make(pytag::Str, keyId);
    forEachItem(dict, [&](PyValue k, PyValue v) {
        if (k == key)
            found = v;
        return true;
    });
    return found;
}

PyValue PickleDoc::get(PyValue dict, std::string_view key) const
{
    const auto id = findText(key);
    return id ? get(dict, *id) : PyValue{};
}

namespace {

// The whole pages of [data, data + bytes) handed back; the allocator's header before the first
// whole page stays.
void releasePages(const void *data, size_t bytes)
{
    const uintptr_t page = uintptr_t(::sysconf(_SC_PAGESIZE));
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) / page * page;
    const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) / page * page;
    if (end > begin)
        ::madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

} // namespace

void PickleDoc::releaseBefore(PyValue container)
{
    if (!isContainer(container))
        return;
    const uint32_t node = nodeOf(container);
    const uint64_t items = std::min<uint64_t>(m_nodes[node].first & kOffsetMask, m_items.size());
    releasePages(m_items.data(), items * sizeof(uint64_t));
    releasePages(m_nodes.data(), size_t(node) * sizeof(Node));
}

size_t PickleDoc::residentBytes() const
{
    return m_items.size() * 8 + m_nodes.size() * sizeof(Node) + m_segs.size() * sizeof(Segment) + m_ints.size() * 8 +
           m_floats.size() * 8 + m_textBytes.size() + m_texts.size() * sizeof(TextRec) + m_textSlots.size() * 4 +
           m_shapeKeys.size() * 4 + m_shapes.size() * sizeof(ShapeRec);
}

} // namespace ps::core::trace::formats
