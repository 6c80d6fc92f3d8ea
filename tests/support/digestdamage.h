#pragma once
// Damages a digest the way a bad disk or copy would: one byte of a named section flipped, its
// table entry (and so its checksum) left as it was (docs/digest-format.md: the table is 40-byte
// entries after a 24-byte header; an entry's offset is at its byte 8).

#include "core/trace/persist/cachecodec.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cstring>

namespace ps::test {

// Flips byte `at` of section `tag` in the digest at `path`; returns how many sections had the tag.
inline int flipSectionByte(const QString &path, const char *tag, qint64 at)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite))
        return 0;
    QByteArray bytes = f.readAll();
    int flipped = 0;
    for (qsizetype entry = 24; entry + 40 <= bytes.size() && entry < 24 + 40 * qsizetype(uint8_t(bytes.at(12)));
         entry += 40)
        if (bytes.mid(entry, 4) == tag) {
            qint64 offset = 0;
            std::memcpy(&offset, bytes.constData() + entry + 8, sizeof offset);
            bytes[offset + at] = char(bytes[offset + at] ^ 0x5a);
            ++flipped;
        }
    f.seek(0);
    f.write(bytes);
    return flipped;
}

// Renames section `from` to `to` in the digest's table and seals the table again, as a writer that
// never made `from` would have: the digest is sound and simply lacks the section. Returns how many
// entries were renamed.
inline int renameSection(const QString &path, const char *from, const char *to)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite))
        return 0;
    QByteArray bytes = f.readAll();
    const qsizetype count = qsizetype(uint8_t(bytes.at(12)));
    int renamed = 0;
    for (qsizetype entry = 24; entry + 40 <= bytes.size() && entry < 24 + 40 * count; entry += 40)
        if (bytes.mid(entry, 4) == from) {
            bytes.replace(entry, 4, QByteArray(to, 4));
            ++renamed;
        }
    const uint64_t sum = ps::core::trace::cacheHash(bytes.constData() + 24, size_t(40 * count));
    bytes.replace(16, 8, QByteArray(reinterpret_cast<const char *>(&sum), 8));
    f.seek(0);
    f.write(bytes);
    return renamed;
}

} // namespace ps::test
