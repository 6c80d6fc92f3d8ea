// Digests (core/trace/persist/digest.h): every sample format digests and loads back to the same events,
// counts, metadata, identity and statistics; damaged, foreign, newer and hostile files fail with a
// reason naming them; a folder holding a report and its digest yields the report once.

#include "core/trace/persist/cachecodec.h"
#include "core/trace/persist/digest.h"
#include "core/trace/read/traceloader.h"
#include "core/trace/tracestats.h"
#include "tests/support/reportload.h"
#include "tests/support/storecompare.h"
#include "tests/support/testdata.h"

#include <sys/resource.h>
#include <zstd.h>

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace ps::core::trace;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(bytes), bytes.size());
}

void compareStats(const ReportPtr &a, const ReportPtr &b, StatsKind kind)
{
    const StatsResult x = summarize(std::span<const ReportPtr>(&a, 1), kind);
    const StatsResult y = summarize(std::span<const ReportPtr>(&b, 1), kind);
    QCOMPARE(y.overall.size(), x.overall.size());
    for (size_t i = 0; i < x.overall.size(); ++i) {
        QCOMPARE(y.overall[i].name, x.overall[i].name);
        QCOMPARE(y.overall[i].count, x.overall[i].count);
        QCOMPARE(y.overall[i].totalNs, x.overall[i].totalNs);
        QCOMPARE(y.overall[i].medNs, x.overall[i].medNs);
    }
}

} // namespace

class TestDigest : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;

    // A valid digest of a small sample, as bytes.
    QByteArray sampleDigest()
    {
        const ReportPtr r = ps::test::loadTestReport(ps::test::nsysDir() + "/ppcu-lab7__report1.sqlite");
        const std::string bytes = encodeDigest(*r);
        return QByteArray(bytes.data(), qsizetype(bytes.size()));
    }
    QString readError(const QByteArray &bytes, const QString &name)
    {
        const QString path = m_tmp.filePath(name);
        writeAll(path, bytes);
        std::string error;
        const ReportPtr r = readDigest(path.toStdString(), error);
        return r ? QString() : QString::fromStdString(error);
    }

private slots:
    void everySampleFormat_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = ps::test::sampleReports();
        QVERIFY(files.size() >= 20);
        for (const QString &f : files)
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
    void everySampleFormat()
    {
        QFETCH(QString, path);
        const ReportPtr source = ps::test::loadTestReport(path);
        QVERIFY(source);
        const QString digestPath = m_tmp.filePath(QFileInfo(path).fileName() + ".psdigest");
        QCOMPARE(QString::fromStdString(writeDigest(*source, digestPath.toStdString())), QString());
        std::string error;
        const ReportPtr digest = readDigest(digestPath.toStdString(), error);
        QVERIFY2(digest, error.c_str());
        // The loader opens it the same way.
        QVERIFY(loadReport(digestPath.toStdString(), ReadContext{}, error));
        QCOMPARE(digest->path, digestPath.toStdString());
        QCOMPARE(int(digest->meta.format), int(source->meta.format));
        QCOMPARE(digest->meta.exporterVersion, source->meta.exporterVersion);
        QCOMPARE(digest->meta.utcStartNs, source->meta.utcStartNs);
        QCOMPARE(digest->meta.rank, source->meta.rank);
        QVERIFY(digest->meta.fileCounts == source->meta.fileCounts);
        QCOMPARE(digest->meta.gpus.size(), source->meta.gpus.size());
        QCOMPARE(digest->meta.memory.size(), source->meta.memory.size());
        QCOMPARE(digest->identity.group, source->identity.group);
        QCOMPARE(digest->identity.rank, source->identity.rank);
        QCOMPARE(digest->identity.step, source->identity.step);
        ps::test::compareStores(*source->store, *digest->store);
        compareStats(source, digest, StatsKind::KernelSum);
        compareStats(source, digest, StatsKind::NvtxSum);
        // Smaller than an uncompressed report; a gzipped Kineto sample of a few thousand events is
        // already compressed, and the digest adds its summaries and pyramids to the events.
        if (path.endsWith(QLatin1String(".gz")))
            QVERIFY(QFileInfo(digestPath).size() < 3 * QFileInfo(path).size());
        else
            QVERIFY(QFileInfo(digestPath).size() < QFileInfo(path).size());
    }

    // A digest's events are the cache image itself, streamed: the pieces make the same bytes
    // encodeCache() writes for the report cache.
    void streamedImageIsTheCacheImage()
    {
        for (const QString &path : {ps::test::nsysDir() + "/ppcu-lab7__report1.sqlite",
                                    ps::test::testdataDir("traces/kineto/hta__trace_filter__sampled_rank-0.json.gz")}) {
            const ReportPtr r = ps::test::loadTestReport(path);
            QVERIFY(r);
            const CacheKey key{path.toStdString(), r->fileSize, r->fileMtimeNs};
            std::string streamed;
            uint64_t announced = 0;
            const uint64_t size = streamCache(
                *r, key, [&](uint64_t n) { announced = n; }, [&](std::string_view piece) { streamed += piece; });
            QCOMPARE(announced, size);
            QCOMPARE(uint64_t(streamed.size()), size);
            QVERIFY(streamed == encodeCache(*r, key));
        }
    }

    void damagedAndForeignFilesSayWhy()
    {
        const QByteArray good = sampleDigest();
        QVERIFY(readError(good, "good.sqlite.psdigest").isEmpty());
        // Truncated anywhere: in the header, the table, or the events.
        for (qsizetype cut : {qsizetype(4), qsizetype(30), good.size() / 2, good.size() - 1}) {
            const QString e = readError(good.left(cut), "cut.sqlite.psdigest");
            QVERIFY2(e.contains("cut.sqlite.psdigest: ") &&
                         (e.contains("damaged digest") || e.contains("not a ProfStudio digest")),
                     qPrintable(e));
        }
        // A flipped byte in the table or in the compressed events.
        for (qsizetype at : {qsizetype(40), good.size() - 20}) {
            QByteArray bad = good;
            bad[at] = char(bad[at] ^ 0x5a);
            const QString e = readError(bad, "flip.sqlite.psdigest");
            QVERIFY2(e.contains("damaged digest") && e.contains("checksum"), qPrintable(e));
        }
        // Another file renamed as a digest.
        const QString e = readError(readAll(ps::test::nsysDir() + "/ppcu-lab7__report1.sqlite"), "x.sqlite.psdigest");
        QVERIFY2(e.contains("not a ProfStudio digest"), qPrintable(e));
        QVERIFY(readError(QByteArray(), "empty.psdigest").contains("not a ProfStudio digest"));
        // A digest of a newer format, one of format 4 (no recorded process identities), one of format 3 (its collective
        // records in OUTL, which an outline would then hold), one of format 2 (no COLL section: communication could not
        // be split into wait and transfer) and one of format 1, whose checksums missed some damage.
        for (const uint32_t v : {6u, 4u, 3u, 2u, 1u}) {
            QByteArray other = good;
            std::memcpy(other.data() + 8, &v, 4);
            const QString e = readError(other, "v.sqlite.psdigest");
            QVERIFY2(e.contains(QString("digest format %1, this build reads format 5").arg(v)) &&
                         e.contains("digest the report again"),
                     qPrintable(e));
        }
    }

    // The checksum covers every byte: the hash of formats 1 / 7 folded the last < 32 bytes with a
    // XOR, so one bit flipped in each of two bytes 8 apart there cancelled out.
    void checksumSeesEveryBitFlip()
    {
        QByteArray data(32 * 100 + 20, '\0');
        for (qsizetype i = 0; i < data.size(); ++i)
            data[i] = char((i * 2654435761u) >> 11);
        const uint64_t sum = cacheHash(data.constData(), size_t(data.size()));
        for (qsizetype at : {data.size() - 17, data.size() - 12, qsizetype(5), qsizetype(1000)}) {
            QByteArray bad = data;
            bad[at] = char(bad[at] ^ 1);
            bad[at + 8] = char(bad[at + 8] ^ 1);
            QVERIFY2(cacheHash(bad.constData(), size_t(bad.size())) != sum, qPrintable(QString::number(at)));
        }
    }

    // A hostile file with valid checksums that claims an enormous decompressed size is refused
    // before anything is allocated for it.
    void hostileSizeIsRefused()
    {
        QByteArray bad = sampleDigest();
        const uint32_t count = [&] {
            uint32_t c;
            std::memcpy(&c, bad.constData() + 12, 4);
            return c;
        }();
        for (uint32_t i = 0; i < count; ++i) {
            const qsizetype raw = 24 + 40 * qsizetype(i) + 24;
            const uint64_t huge = uint64_t(1) << 50;
            std::memcpy(bad.data() + raw, &huge, 8);
        }
        const uint64_t tableSum = cacheHash(bad.constData() + 24, 40 * size_t(count));
        std::memcpy(bad.data() + 16, &tableSum, 8);
        const QString e = readError(bad, "huge.sqlite.psdigest");
        QVERIFY2(e.contains("stated size disagree"), qPrintable(e));
    }

    // A digest whose events inflate to 512 MB behind a header that is not a cache image's (within
    // the 1024x ratio the table allows) is refused from the header alone: the reader once
    // allocated and inflated all of it first (1.06 GB for a 5.4 MB file in the issue).
    void lyingImageRefusedBeforeInflating()
    {
        const size_t raw = size_t(512) << 20, noise = size_t(1) << 20;
        std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx *)> cctx(ZSTD_createCCtx(), &ZSTD_freeCCtx);
        ZSTD_CCtx_setPledgedSrcSize(cctx.get(), raw);
        std::string frame(ZSTD_compressBound(noise) + (raw >> 10), '\0');
        ZSTD_outBuffer out{frame.data(), frame.size(), 0};
        std::string chunk(noise, '\0');
        uint32_t x = 12345;
        for (size_t fed = 0; fed < raw; fed += chunk.size()) {
            if (raw - fed <= noise) // an incompressible last chunk, so that the ratio stays under 1024
                for (char &c : chunk)
                    c = char((x = x * 1664525u + 1013904223u) >> 24);
            ZSTD_inBuffer in{chunk.data(), chunk.size(), 0};
            const ZSTD_EndDirective end = fed + chunk.size() >= raw ? ZSTD_e_end : ZSTD_e_continue;
            size_t left = 0;
            do
                left = ZSTD_compressStream2(cctx.get(), &out, &in, end);
            while (!ZSTD_isError(left) && (in.pos < in.size || (end == ZSTD_e_end && left > 0)));
            QVERIFY(!ZSTD_isError(left));
        }
        frame.resize(out.pos);
        QVERIFY(raw <= frame.size() * 1024);
        // PSDIGEST, format, one section (EVTS, zstd, at 64), its table checksum.
        QByteArray file("PSDIGEST", 8);
        const uint32_t version = kDigestVersion, count = 1, tag = 'E' | 'V' << 8 | 'T' << 16 | uint32_t('S') << 24,
                       codec = 1;
        const uint64_t offset = 64, stored = frame.size(), size = raw, sum = cacheHash(frame.data(), frame.size());
        file.append(reinterpret_cast<const char *>(&version), 4).append(reinterpret_cast<const char *>(&count), 4);
        QByteArray entry;
        for (const auto &[p, n] :
             {std::pair<const void *, int>{&tag, 4}, {&codec, 4}, {&offset, 8}, {&stored, 8}, {&size, 8}, {&sum, 8}})
            entry.append(static_cast<const char *>(p), n);
        const uint64_t tableSum = cacheHash(entry.constData(), size_t(entry.size()));
        file.append(reinterpret_cast<const char *>(&tableSum), 8).append(entry).append(frame.data(), qsizetype(stored));
        rusage before{};
        getrusage(RUSAGE_SELF, &before);
        const QString e = readError(file, "lying.sqlite.psdigest");
        rusage after{};
        getrusage(RUSAGE_SELF, &after);
        QVERIFY2(e.contains("damaged digest: its events do not decode (corrupt: bad magic)"), qPrintable(e));
        QVERIFY2(after.ru_maxrss - before.ru_maxrss < 128 * 1024,
                 qPrintable(QString("peak RSS grew by %1 KB").arg(after.ru_maxrss - before.ru_maxrss)));
    }

    // Temporaries a killed `trace digest` left beside its digests are removed by the next run
    // that writes there; a temporary written since this run began (another run's) is left.
    void staleTemporariesAreRemoved()
    {
        QTemporaryDir dir;
        const ReportPtr r = ps::test::loadTestReport(ps::test::nsysDir() + "/ppcu-lab7__report1.sqlite");
        QVERIFY(r);
        const QString stale = dir.filePath("old.sqlite.psdigest.Ab12Cd"),
                      live = dir.filePath("x.sqlite.psdigest.Zz99Yy");
        const QString foreign = dir.filePath("notes.txt.Ab12Cd");
        for (const QString &p : {stale, live, foreign})
            writeAll(p, "partial");
        for (const QString &p : {stale, foreign}) {
            QFile f(p);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-3600), QFileDevice::FileModificationTime));
        }
        QCOMPARE(QString::fromStdString(writeDigest(*r, dir.filePath("x.sqlite.psdigest").toStdString())), QString());
        QVERIFY(!QFileInfo::exists(stale));
        QVERIFY(QFileInfo::exists(live));
        QVERIFY(QFileInfo::exists(foreign));
    }

    void folderYieldsEachCaptureOnce()
    {
        QTemporaryDir dir;
        const QString report = dir.filePath("run/a/rlinf_profile_ActorGroup_3_300.sqlite");
        QVERIFY(QDir().mkpath(dir.filePath("run/a")) && QDir().mkpath(dir.filePath("collected/a")));
        QVERIFY(QFile::copy(ps::test::nsysDir() + "/ppcu-lab7__report1.sqlite", report));
        const ReportPtr r = ps::test::loadTestReport(report);
        QVERIFY(r);
        QCOMPARE(QString::fromStdString(writeDigest(*r, report.toStdString() + ".psdigest")), QString());
        QVERIFY(QFile::copy(report + ".psdigest",
                            dir.filePath("collected/a/rlinf_profile_ActorGroup_3_300.sqlite.psdigest")));
        QCOMPARE(findReports({dir.filePath("run").toStdString()}, nullptr),
                 std::vector<std::string>{report.toStdString()});
        const auto collected = findReports({dir.filePath("collected").toStdString()}, nullptr);
        QCOMPARE(collected.size(), size_t(1));
        std::string error;
        const ReportPtr d = loadReport(collected[0], ReadContext{}, error);
        QVERIFY2(d, error.c_str());
        // The digest is the same worker as its report: identity from the name without the suffix.
        QCOMPARE(d->identity.group, std::string("ActorGroup"));
        QCOMPARE(d->identity.rank, std::optional<int>(3));
        QVERIFY(d->meta.warnings.empty() || d->meta.warnings.back().find("disagrees") == std::string::npos);
        // The report and its digest in different folders, opened together: one capture, once.
        LoadOptions o;
        o.useCache = false;
        const LoadResult both =
            loadReports({dir.filePath("run").toStdString(), dir.filePath("collected").toStdString()}, o);
        QCOMPARE(both.reports.size(), size_t(1));
        QCOMPARE(both.reports[0]->path, report.toStdString());
        QCOMPARE(both.warnings.size(), size_t(1));
        QVERIFY2(both.warnings[0].find("counted once") != std::string::npos, both.warnings[0].c_str());
    }

    // A digest renamed (or swapped) to another rank's name keeps the identity it recorded, with a
    // warning: it once took the name's rank, and a straggler was blamed on the wrong rank.
    void recordedIdentityWinsOverTheName()
    {
        QTemporaryDir dir;
        const QString report = dir.filePath("rlinf_profile_ActorGroup_3_300.sqlite");
        QVERIFY(QFile::copy(ps::test::nsysDir() + "/ppcu-lab7__report1.sqlite", report));
        const ReportPtr r = ps::test::loadTestReport(report);
        QVERIFY(r);
        const QString renamed = dir.filePath("rlinf_profile_ActorGroup_5_500.sqlite.psdigest");
        QCOMPARE(QString::fromStdString(writeDigest(*r, renamed.toStdString())), QString());
        std::string error;
        const ReportPtr d = readDigest(renamed.toStdString(), error);
        QVERIFY2(d, error.c_str());
        QCOMPARE(d->identity.rank, std::optional<int>(3));
        QCOMPARE(d->identity.pid, std::optional<uint32_t>(300));
        QVERIFY(!d->meta.warnings.empty());
        const QString w = QString::fromStdString(d->meta.warnings.back());
        QVERIFY2(w.contains("rank 5 (its name) vs 3 (recorded)") && w.contains("pid 500 (its name) vs 300 (recorded)"),
                 qPrintable(w));
    }
};

QTEST_GUILESS_MAIN(TestDigest)
#include "tst_digest.moc"
