// The corpus of bad and risky configs (tests/profiling/corpus). Each file marks the line of
// every offending value with "# <- RULE SEVERITY[, RULE SEVERITY]"; the test composes the file,
// runs the analysis and requires exactly the marked diagnostics: same rule, severity and line,
// located in that file, and nothing else. Files without markers must produce no diagnostic.
// A "# available-backends: a,b" line describes the cluster's installed tools.
#include "core/config/configerror.h"
#include "core/profiling/analysis.h"
#include "core/profiling/rulecatalogue.h"
#include "profilingtestutil.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <set>

using namespace ps::core::profiling;

namespace {

const QString kCorpus = QStringLiteral(PS_SOURCE_DIR "/tests/profiling/corpus");

struct Expected
{
    QString rule;
    QString severity;
    int line;
    bool operator<(const Expected &o) const
    {
        return std::tie(line, rule, severity) < std::tie(o.line, o.rule, o.severity);
    }
};

std::set<Expected> markersOf(const QString &path, std::optional<std::vector<std::string>> &backends)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    std::set<Expected> out;
    static const QRegularExpression marker(QStringLiteral("#\\s*<-\\s*(.*)$"));
    static const QRegularExpression item(QStringLiteral("^\\s*([a-z]+\\.[a-z0-9-]+)\\s+(error|warning|info)\\s*$"));
    int line = 0;
    for (const QByteArray &raw : f.readAll().split('\n')) {
        ++line;
        const QString text = QString::fromUtf8(raw);
        if (text.startsWith(QLatin1String("# available-backends:"))) {
            std::vector<std::string> list;
            for (const auto &b : text.mid(21).split(',', Qt::SkipEmptyParts))
                list.push_back(b.trimmed().toStdString());
            backends = list;
        }
        const auto m = marker.match(text);
        if (!m.hasMatch())
            continue;
        for (const QString &part : m.captured(1).split(',')) {
            const auto im = item.match(part);
            if (im.hasMatch())
                out.insert({im.captured(1), im.captured(2), line});
            else
                qWarning("%s:%d: malformed marker '%s'", qPrintable(path), line, qPrintable(part));
        }
    }
    return out;
}

QStringList corpusFiles()
{
    return QDir(kCorpus).entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
}

} // namespace

class TestProfilingCorpus : public QObject
{
    Q_OBJECT
private slots:
    void corpusIsLargeEnough()
    {
        QVERIFY2(corpusFiles().size() >= 80, qPrintable(QString::number(corpusFiles().size())));
    }

    // Every rule of the catalogue is exercised by at least one corpus file.
    void everyRuleCovered()
    {
        std::set<QString> covered;
        for (const QString &name : corpusFiles()) {
            std::optional<std::vector<std::string>> backends;
            for (const auto &e : markersOf(kCorpus + "/" + name, backends))
                covered.insert(e.rule);
        }
        QStringList missing;
        for (const auto &rule : ruleCatalogue())
            if (!covered.count(QString::fromUtf8(rule.id.data(), qsizetype(rule.id.size()))))
                missing << QString::fromUtf8(rule.id.data(), qsizetype(rule.id.size()));
        QVERIFY2(missing.isEmpty(), qPrintable("rules without a corpus case: " + missing.join(", ")));
    }

    void corpusCase_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString &name : corpusFiles())
            QTest::newRow(qPrintable(name)) << name;
    }
    void corpusCase()
    {
        QFETCH(QString, name);
        const QString path = kCorpus + "/" + name;
        std::optional<std::vector<std::string>> backends;
        const std::set<Expected> expected = markersOf(path, backends);

        pstest::Case c;
        c.configDirs = {kCorpus.toStdString()};
        c.configName = name.chopped(5).toStdString();
        c.cluster.availableBackends = backends;
        std::shared_ptr<const AnalysisResult> r;
        try {
            r = pstest::analyzeCase(c);
        } catch (const ps::core::config::ConfigError &e) {
            QFAIL(e.format().c_str());
        }
        std::set<Expected> actual;
        QStringList report;
        for (const auto &d : r->diagnostics) {
            actual.insert({QString::fromStdString(d.rule), QString::fromUtf8(severityName(d.severity)), d.line});
            report << QString::fromStdString(d.format());
            QVERIFY2(QString::fromStdString(d.file).endsWith("/" + name),
                     qPrintable(QString::fromStdString(d.format())));
            QVERIFY2(d.column > 0, qPrintable(QString::fromStdString(d.format())));
            QVERIFY(!d.message.empty());
            QVERIFY(!d.key.empty());
        }
        QStringList missing, unexpected;
        for (const auto &e : expected)
            if (!actual.count(e))
                missing << QString("%1 %2 line %3").arg(e.rule, e.severity).arg(e.line);
        for (const auto &a : actual)
            if (!expected.count(a))
                unexpected << QString("%1 %2 line %3").arg(a.rule, a.severity).arg(a.line);
        QVERIFY2(missing.isEmpty() && unexpected.isEmpty(),
                 qPrintable("missing: " + missing.join("; ") + "\nunexpected: " + unexpected.join("; ") + "\nall:\n" +
                            report.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestProfilingCorpus)
#include "tst_profilingcorpus.moc"
