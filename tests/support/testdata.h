#pragma once
// The sample files tests read in place from ../shared/testdata (PS_TESTDATA_DIR). Data-driven
// tests built on these lists must also check that the list is not empty, so that a moved
// folder fails the test instead of running zero rows.

#include <QDir>
#include <QString>
#include <QStringList>

namespace ps::test {

inline QString testdataDir(const QString &sub)
{
    return QStringLiteral(PS_TESTDATA_DIR "/") + sub;
}

// Full paths of the files in testdata/<sub> matching the name filters, by name.
inline QStringList testdataFiles(const QString &sub, const QStringList &nameFilters)
{
    QStringList out;
    const QString dir = testdataDir(sub);
    for (const QString &f : QDir(dir).entryList(nameFilters, QDir::Files, QDir::Name))
        out << dir + "/" + f;
    return out;
}

inline QString nsysDir()
{
    return testdataDir(QStringLiteral("traces/nsys"));
}

// Every nsys SQLite export in testdata.
inline QStringList nsysFiles()
{
    return testdataFiles(QStringLiteral("traces/nsys"), {QStringLiteral("*.sqlite")});
}

// Every sample report readable without nsys, of every format: nsys SQLite exports, rocpd, Ascend
// and Kineto.
inline QStringList sampleReports()
{
    return nsysFiles() + testdataFiles(QStringLiteral("traces/rocpd"), {QStringLiteral("*.db")}) +
           testdataFiles(QStringLiteral("traces/ascend"), {QStringLiteral("*.db")}) +
           testdataFiles(QStringLiteral("traces/kineto"), {QStringLiteral("*.json.gz")});
}

} // namespace ps::test
