// Reports and the real nsys (PS_NSYS, Nsight Systems 2022.4 from Debian):
//   - the release a .nsys-rep needs, read from its header, for the real samples (2025.3, 2025.5,
//     2025.6) and for one this nsys writes (2022.4 writes none);
//   - a 2025.3 report given only this nsys fails before running it, naming the report's release
//     and every nsys found with theirs (nsys itself says "Version number is invalid");
//   - a .qdstrm, left by an nsys whose importer is missing, opens through the QdstrmImporter
//     beside PS_NSYS, with the NVTX range the profiled program pushed.

#include "core/trace/formats/nsyslocator.h"
#include "core/trace/formats/nsysrepreader.h"
#include "core/trace/store/storebuilder.h"
#include "realnsys.h"

#include <QTemporaryDir>

using namespace ps::core::trace;
using namespace ps::core::trace::formats;

namespace {

std::string headOf(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(256).toStdString() : std::string();
}

QString sample(const char *name)
{
    return QStringLiteral(PS_TESTDATA_DIR "/traces/nsys/") + name;
}

// A program that pushes one NVTX range, as python3 through ctypes.
QStringList nvtxProgram()
{
    return {"python3", "-c",
            "import ctypes; n = ctypes.CDLL('" + realnsys::nvtxLibrary() +
                "'); n.nvtxRangePushA(b'update_actor'); sum(range(100000)); n.nvtxRangePop()"};
}

} // namespace

class TestRealNsysReports : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        REALNSYS_REQUIRE();
        QVERIFY(m_dir.isValid());
    }

    void releaseFromTheHeader()
    {
        QCOMPARE(versionText(*reportVersion(headOf(sample("cupqc__report1.nsys-rep")))), std::string("2025.3.2.474"));
        QCOMPARE(versionText(*reportVersion(headOf(sample("jax-toolbox__pdl_2p2c.nsys-rep")))),
                 std::string("2025.5.1.121"));
        QCOMPARE(versionText(*reportVersion(headOf(sample("ppcu-lab7__report1.nsys-rep")))),
                 std::string("2025.6.1.190"));
        QVERIFY(canRead({2025, 6, 1}, {2025, 3, 2, 474}));
        QVERIFY(!canRead({2022, 4, 2, 1}, {2025, 3, 2, 474}));
        // What this nsys writes says no release: any nsys is tried.
        const QString out = m_dir.filePath("own");
        QString said;
        QCOMPARE(realnsys::run(realnsys::nsys(),
                               QStringList{"profile"} + realnsys::cpuProfileOptions() + QStringList{"-o", out} +
                                   nvtxProgram(),
                               &said),
                 0);
        QVERIFY2(QFileInfo::exists(out + ".nsys-rep"), qPrintable(said));
        QVERIFY(!reportVersion(headOf(out + ".nsys-rep")));
    }

    void tooNewReportNamesEveryNsys()
    {
        const std::vector<NsysInstall> installs = findNsysInstalls(realnsys::nsys().toStdString());
        QVERIFY(!installs.empty() && installs.front().version);
        if (canRead(*installs.front().version, {2025, 3, 2}))
            QSKIP("PS_NSYS reads 2025.3 reports");
        QTemporaryDir cache;
        NsysRepReader reader({realnsys::nsys().toStdString(), cache.path().toStdString()});
        StoreBuilder b;
        ReportMeta meta;
        const QString err = QString::fromStdString(
            reader.read(sample("cupqc__report1.nsys-rep").toStdString(), b, meta, ReadContext{}));
        QVERIFY2(err.contains("written by Nsight Systems 2025.3.2.474"), qPrintable(err));
        const QString listed =
            realnsys::nsys() + " (" + QString::fromStdString(versionText(*installs.front().version)) + ")";
        QVERIFY2(err.contains(listed), qPrintable(err));
        QVERIFY2(err.contains("nsys export --type sqlite"), qPrintable(err));
    }

    void qdstrmThroughTheImporter()
    {
        // An nsys without its host tree beside it (hard links of the target folder) leaves the
        // raw stream, as it does on a node where the importer is missing.
        const QString target = QFileInfo(QFileInfo(realnsys::nsys()).canonicalFilePath()).absolutePath();
        const QString bare = m_dir.filePath("bare/target-linux-x64");
        QVERIFY(QDir().mkpath(m_dir.filePath("bare")));
        QCOMPARE(realnsys::run("cp", {"-al", target, bare}), 0);
        const QString out = m_dir.filePath("stream");
        QString said;
        realnsys::run(bare + "/nsys",
                      QStringList{"profile"} + realnsys::cpuProfileOptions() + QStringList{"-o", out} + nvtxProgram(),
                      &said);
        QVERIFY2(QFileInfo::exists(out + ".qdstrm") && !QFileInfo::exists(out + ".nsys-rep"), qPrintable(said));
        QVERIFY(qdstrmVersion(headOf(out + ".qdstrm")));
        QVERIFY(!importerBeside(realnsys::nsys().toStdString()).empty());

        QTemporaryDir cache;
        NsysRepReader reader({realnsys::nsys().toStdString(), cache.path().toStdString()});
        QVERIFY(reader.probe((out + ".qdstrm").toStdString(), headOf(out + ".qdstrm")));
        StoreBuilder b;
        ReportMeta meta;
        const std::string err = reader.read((out + ".qdstrm").toStdString(), b, meta, ReadContext{});
        QVERIFY2(err.empty(), err.c_str());
        const EventStore store = std::move(b).build();
        QCOMPARE(store.count(TrackKind::NvtxPushPop), size_t(1));
        QVERIFY(store.count(TrackKind::OsRuntime) > 0);
    }
};

QTEST_GUILESS_MAIN(TestRealNsysReports)
#include "tst_realnsysreports.moc"
