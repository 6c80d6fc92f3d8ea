#pragma once
// Independent reference values for Kineto tests: the trace decompressed with zlib and parsed
// with QJsonDocument, never through the code under test.

#include <zlib.h>

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace jsonref {

// The file's bytes, gunzipped when it is gzip.
inline QByteArray readMaybeGzip(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray raw = f.readAll();
    if (raw.size() < 2 || uchar(raw[0]) != 0x1f || uchar(raw[1]) != 0x8b)
        return raw;
    QByteArray out;
    z_stream z{};
    inflateInit2(&z, 16 + MAX_WBITS);
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(raw.data()));
    z.avail_in = uInt(raw.size());
    char buf[1 << 16];
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef *>(buf);
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buf, int(sizeof buf - z.avail_out));
    }
    inflateEnd(&z);
    return out;
}

inline QJsonObject readTrace(const QString &path)
{
    const QJsonDocument d = QJsonDocument::fromJson(readMaybeGzip(path));
    if (d.isArray())
        return QJsonObject{{"traceEvents", d.array()}};
    return d.object();
}

// µs (int or float) to ns: integers exactly (multiplied as integers: epoch ns exceed a double's
// 53 bits), decimals within 1 ns (a double's precision at relative magnitudes).
inline qint64 toNs(const QJsonValue &v)
{
    const double d = v.toDouble();
    if (d == double(qint64(d)))
        return qint64(d) * 1000;
    return qRound64(d * 1000.0);
}

} // namespace jsonref
