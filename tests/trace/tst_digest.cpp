// Digests (core/trace/digest.h): every sample format digests and loads back to the same events,
// counts, metadata, identity and statistics; damaged, foreign, newer and hostile files fail with a
// reason naming them; a folder holding a report and its digest yields the report once.

#include "core/trace/cachecodec.h"
#include "core/trace/digest.h"
#include "core/trace/traceloader.h"
#include "core/trace/tracestats.h"
#include "tests/support/reportload.h"
#include "tests/support/storecompare.h"
#include "tests/support/testdata.h"

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
        // A digest of a newer format.
        QByteArray newer = good;
        const uint32_t v2 = 2;
        std::memcpy(newer.data() + 8, &v2, 4);
        QVERIFY(readError(newer, "new.sqlite.psdigest").contains("digest format 2, this build reads format 1"));
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
    }
};

QTEST_GUILESS_MAIN(TestDigest)
#include "tst_digest.moc"
