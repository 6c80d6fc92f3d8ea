// YAML loading: OmegaConf's scalar typing (checked against OmegaConf 2.2.2's loader), source
// marks on every node, headers, and located errors.
#include "core/config/configerror.h"
#include "core/config/yamlloader.h"

#include <QtTest>

#include <cmath>

using namespace ps::core::config;

Q_DECLARE_METATYPE(Node::Kind)

class TestYamlLoader : public QObject
{
    Q_OBJECT
private slots:
    void scalarTyping_data()
    {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<Node::Kind>("kind");
        QTest::addColumn<QString>("value"); // Python str() of the loaded value
        // Each row is what OmegaConf.create("k: <yaml>") gives.
        QTest::newRow("int") << "1" << Node::Kind::Int << "1";
        QTest::newRow("quoted int stays str") << "'1'" << Node::Kind::String << "1";
        QTest::newRow("1e3 is a float") << "1e3" << Node::Kind::Float << "1000.0";
        QTest::newRow("1.5e-3") << "1.5e-3" << Node::Kind::Float << "0.0015";
        QTest::newRow("1e-6") << "1e-6" << Node::Kind::Float << "1e-06";
        QTest::newRow("1E+3") << "1E+3" << Node::Kind::Float << "1000.0";
        QTest::newRow("yes") << "yes" << Node::Kind::Bool << "True";
        QTest::newRow("off") << "off" << Node::Kind::Bool << "False";
        QTest::newRow("NO") << "NO" << Node::Kind::Bool << "False";
        QTest::newRow("True") << "True" << Node::Kind::Bool << "True";
        QTest::newRow("y stays str") << "y" << Node::Kind::String << "y";
        QTest::newRow("tilde") << "~" << Node::Kind::Null << "None";
        QTest::newRow("empty") << "" << Node::Kind::Null << "None";
        QTest::newRow("null") << "null" << Node::Kind::Null << "None";
        QTest::newRow("hex") << "0x1f" << Node::Kind::Int << "31";
        QTest::newRow("octal") << "017" << Node::Kind::Int << "15";
        QTest::newRow("08 is str") << "08" << Node::Kind::String << "08";
        QTest::newRow("0o17 is str") << "0o17" << Node::Kind::String << "0o17";
        QTest::newRow("binary") << "0b101" << Node::Kind::Int << "5";
        QTest::newRow("underscores") << "1_000" << Node::Kind::Int << "1000";
        QTest::newRow("sexagesimal int") << "1:30" << Node::Kind::Int << "90";
        QTest::newRow("sexagesimal float") << "1:30.5" << Node::Kind::Float << "90.5";
        QTest::newRow("float underscores") << "-1_0.5" << Node::Kind::Float << "-10.5";
        QTest::newRow("date stays str") << "2024-01-01" << Node::Kind::String << "2024-01-01";
        QTest::newRow("version") << "1.2.3" << Node::Kind::String << "1.2.3";
        QTest::newRow(".inf") << ".inf" << Node::Kind::Float << "inf";
        QTest::newRow("-.inf") << "-.inf" << Node::Kind::Float << "-inf";
        QTest::newRow("+1") << "+1" << Node::Kind::Int << "1";
        QTest::newRow("-0") << "-0" << Node::Kind::Int << "0";
        QTest::newRow("1.") << "1." << Node::Kind::Float << "1.0";
        QTest::newRow(".5") << ".5" << Node::Kind::Float << "0.5";
        QTest::newRow("+.5 is str") << "+.5" << Node::Kind::String << "+.5";
        QTest::newRow("1e is str") << "1e" << Node::Kind::String << "1e";
        QTest::newRow("missing") << "???" << Node::Kind::Missing << "???";
        QTest::newRow("interpolation") << "${a.b}" << Node::Kind::Interpolation << "${a.b}";
        QTest::newRow("quoted interpolation") << "'${a.b}'" << Node::Kind::Interpolation << "${a.b}";
        QTest::newRow("double quoted") << "\"x\"" << Node::Kind::String << "x";
        QTest::newRow("str tag") << "!!str 12" << Node::Kind::String << "12";
        // PyYAML itself crashes here ("could not convert string to float"), found while checking the
        // emitter against OmegaConf: "._" matches the float pattern but is no number; it stays the text.
        QTest::newRow("dot underscore") << "._" << Node::Kind::String << "._";
        // fuzz_config finding (UBSan: "signed integer overflow: 1111111111111111168 * 60" in the
        // sexagesimal int constructor). Beyond int64 (Python has no limit) the text is kept.
        QTest::newRow("huge sexagesimal")
            << "1:2:3:4:5:6:7:8:9:10:11:12:13" << Node::Kind::String << "1:2:3:4:5:6:7:8:9:10:11:12:13";
        // Python ints are unbounded: beyond 64 bits they stay ints, exact (checked with OmegaConf 2.2).
        QTest::newRow("huge int") << "99999999999999999999" << Node::Kind::Int << "99999999999999999999";
        QTest::newRow("huge negative") << "-123_456_789_012_345_678_901" << Node::Kind::Int << "-123456789012345678901";
        QTest::newRow("huge hex") << "0x1FFFFFFFFFFFFFFFF" << Node::Kind::Int << "36893488147419103231";
        QTest::newRow("huge octal") << "0777777777777777777777777" << Node::Kind::Int << "4722366482869645213695";
        QTest::newRow("huge binary") << "0b11111111111111111111111111111111111111111111111111111111111111111"
                                     << Node::Kind::Int << "36893488147419103231";
        QTest::newRow("int64 max") << "9223372036854775807" << Node::Kind::Int << "9223372036854775807";
        QTest::newRow("int64 min") << "-9223372036854775808" << Node::Kind::Int << "-9223372036854775808";
        QTest::newRow("int64 max + 1") << "9223372036854775808" << Node::Kind::Int << "9223372036854775808";
    }

    void scalarTyping()
    {
        QFETCH(QString, yaml);
        QFETCH(Node::Kind, kind);
        QFETCH(QString, value);
        LoadedYaml y = loadYamlText(("k: " + yaml + "\n").toStdString(), "t.yaml");
        const Node *k = y.root.find("k");
        QVERIFY(k);
        QCOMPARE(int(k->kind()), int(kind));
        QCOMPARE(QString::fromStdString(k->toPythonString()), value);
    }

    void nanLoads()
    {
        LoadedYaml y = loadYamlText("k: .nan\n", "t.yaml");
        QVERIFY(std::isnan(y.root.find("k")->asFloat()));
    }

    void marksOnEveryNode()
    {
        LoadedYaml y = loadYamlText("a:\n  b: 1\n  c: [x, y]\nlst:\n  - 3\n  - k: v\n", "/x/t.yaml");
        const Node *a = y.root.find("a");
        QCOMPARE(a->mark.file, std::string("/x/t.yaml"));
        QCOMPARE(a->mark.line, 1);
        QCOMPARE(a->mark.column, 1);
        QCOMPARE(a->find("b")->mark.line, 2);
        QCOMPARE(a->find("b")->mark.column, 6); // the value token, not the key
        QCOMPARE(a->find("c")->items()[1].mark.line, 3);
        QCOMPARE(a->find("c")->items()[1].mark.column, 10);
        const Node *lst = y.root.find("lst");
        QCOMPARE(lst->items()[0].mark.line, 5);
        QCOMPARE(lst->items()[1].find("k")->mark.line, 6);
        QCOMPARE(lst->items()[1].find("k")->mark.column, 8);
    }

    void keyOrderKept()
    {
        LoadedYaml y = loadYamlText("z: 1\na: 2\nm: 3\n", "t.yaml");
        QCOMPARE(y.root.keys(), (std::vector<std::string>{"z", "a", "m"}));
    }

    void anchorsAndAliases()
    {
        LoadedYaml y = loadYamlText("base: &b {x: 1}\nother: *b\n", "t.yaml");
        QCOMPARE(y.root.find("other")->find("x")->asInt(), int64_t(1));
    }

    void packageHeader_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("has");
        QTest::addColumn<QString>("package");
        QTest::newRow("header") << "# @package cluster.storage\na: 1\n" << true << "cluster.storage";
        QTest::newRow("after blank lines") << "\n\n# @package _global_\na: 1\n" << true << "_global_";
        QTest::newRow("after another comment: not a header") << "# a comment\n# @package x\na: 1\n" << false << "";
        QTest::newRow("none") << "a: 1\n" << false << "";
    }

    void packageHeader()
    {
        QFETCH(QString, text);
        QFETCH(bool, has);
        QFETCH(QString, package);
        LoadedYaml y = loadYamlText(text.toStdString(), "t.yaml");
        QCOMPARE(y.hasPackageHeader, has);
        QCOMPARE(QString::fromStdString(y.packageHeader), package);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("contains");
        QTest::newRow("duplicate key") << "a: 1\nb: 2\na: 3\n" << 3 << "found duplicate key a";
        QTest::newRow("nested duplicate") << "x:\n  k: 1\n  k: 2\n" << 3 << "found duplicate key k";
        QTest::newRow("bad indentation") << "a:\n  b: 1\n c: 2\n" << 3 << "malformed YAML";
        QTest::newRow("unclosed flow") << "a: [1, 2\n" << 2 << "malformed YAML";
        // Placed where PyYAML places them (libyaml is its C twin).
        QTest::newRow("two documents") << "a: 1\n---\nb: 2\n" << 2 << "single document";
        QTest::newRow("undefined alias") << "a: 1\nb: *nope\n" << 2 << "found undefined alias 'nope'";
        QTest::newRow("control character") << "a: 1\nb: \x01\n" << 2 << "control characters are not allowed";
        QTest::newRow("unknown tag") << "a: !!python/object:x 1\n" << 1 << "tag";
        QTest::newRow("bad header") << "# @package\na: 1\n" << 1 << "Expected header format";
    }

    void errors()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, contains);
        try {
            loadYamlText(text.toStdString(), "/conf/bad.yaml");
            QFAIL("should fail");
        } catch (const ConfigError &e) {
            QVERIFY2(QString::fromStdString(e.message()).contains(contains), e.what());
            QCOMPARE(QString::fromStdString(e.where().file), QString("/conf/bad.yaml"));
            if (line)
                QCOMPARE(e.where().line, line);
            QVERIFY(QString::fromStdString(e.format()).startsWith("/conf/bad.yaml:"));
        }
    }

    void unreadableFile()
    {
        try {
            loadYamlFile("/nonexistent/dir/x.yaml");
            QFAIL("should fail");
        } catch (const ConfigError &e) {
            QVERIFY(QString::fromStdString(e.format()).contains("/nonexistent/dir/x.yaml"));
        }
    }
};

QTEST_GUILESS_MAIN(TestYamlLoader)
#include "tst_yamlloader.moc"
