#pragma once
// Damages a digest the way a bad disk or copy would: one byte of a named section flipped, its
// table entry (and so its checksum) left as it was (docs/digest-format.md: the table is 40-byte
// entries after a 24-byte header; an entry's offset is at its byte 8).

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

} // namespace ps::test
