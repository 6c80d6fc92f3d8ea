// YAML emission: byte-identical to OmegaConf.to_yaml. Every expected text below was printed by
// OmegaConf 2.2.2 (OmegaConf.to_yaml(OmegaConf.create({'k': value}))) on this machine.
#include "core/common/jsonwriter.h"
#include "core/config/yamlemitter.h"
#include "core/config/yamlloader.h"

#include <QtTest>

#include <limits>

using namespace ps::core::config;

Q_DECLARE_METATYPE(ps::core::config::Node)

class TestYamlEmitter : public QObject
{
    Q_OBJECT
private slots:
    void scalar_data()
    {
        QTest::addColumn<Node>("value");
        QTest::addColumn<QString>("yaml");
        // OmegaConf.to_yaml of Python ints beyond 64 bits: plain digits.
        QTest::newRow("big int") << Node::bigInteger("123456789012345678901234567890")
                                 << QString("k: 123456789012345678901234567890\n");
        QTest::newRow("big negative int")
            << Node::bigInteger("-99999999999999999999") << QString("k: -99999999999999999999\n");
        QTest::newRow("str 0") << Node::string(QString::fromUtf8("x x x x x x x x x x x x x x x x x x x x x x x x x x "
                                                                 "x x x x x x x x x x x x x x x x x x x x x x x x ")
                                                   .toStdString())
                               << QString::fromUtf8("k: 'x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x "
                                                    "x x x x x x x x\n  x x x x x x x x x x x '\n");
        QTest::newRow("str 1") << Node::string(QString::fromUtf8("line1\nline2").toStdString())
                               << QString::fromUtf8("k: 'line1\n\n  line2'\n");
        QTest::newRow("str 2") << Node::string(QString::fromUtf8("tab\there").toStdString())
                               << QString::fromUtf8("k: \"tab\\there\"\n");
        QTest::newRow("str 3") << Node::string(QString::fromUtf8("").toStdString()) << QString::fromUtf8("k: ''\n");
        QTest::newRow("str 4") << Node::string(QString::fromUtf8("null").toStdString())
                               << QString::fromUtf8("k: 'null'\n");
        QTest::newRow("str 5") << Node::string(QString::fromUtf8("2024-01-01").toStdString())
                               << QString::fromUtf8("k: '2024-01-01'\n");
        QTest::newRow("str 6") << Node::string(QString::fromUtf8("1e3").toStdString())
                               << QString::fromUtf8("k: '1e3'\n");
        QTest::newRow("str 7") << Node::string(QString::fromUtf8(" lead").toStdString())
                               << QString::fromUtf8("k: ' lead'\n");
        QTest::newRow("str 8") << Node::string(QString::fromUtf8("=").toStdString()) << QString::fromUtf8("k: '='\n");
        QTest::newRow("str 9") << Node::string(QString::fromUtf8("a: b").toStdString())
                               << QString::fromUtf8("k: 'a: b'\n");
        QTest::newRow("str 10") << Node::string(QString::fromUtf8("#x").toStdString())
                                << QString::fromUtf8("k: '#x'\n");
        QTest::newRow("str 11") << Node::string(QString::fromUtf8("x #y").toStdString())
                                << QString::fromUtf8("k: 'x #y'\n");
        QTest::newRow("str 12") << Node::string(QString::fromUtf8("it's").toStdString())
                                << QString::fromUtf8("k: it's\n");
        QTest::newRow("str 13") << Node::string(QString::fromUtf8("-").toStdString()) << QString::fromUtf8("k: '-'\n");
        QTest::newRow("str 14") << Node::string(QString::fromUtf8("- x").toStdString())
                                << QString::fromUtf8("k: '- x'\n");
        QTest::newRow("str 15") << Node::string(QString::fromUtf8("1_000").toStdString())
                                << QString::fromUtf8("k: '1_000'\n");
        QTest::newRow("str 16") << Node::string(QString::fromUtf8("y").toStdString()) << QString::fromUtf8("k: 'y'\n");
        QTest::newRow("str 17") << Node::string(QString::fromUtf8("Yes").toStdString())
                                << QString::fromUtf8("k: 'Yes'\n");
        QTest::newRow("str 18") << Node::string(QString::fromUtf8("inf").toStdString())
                                << QString::fromUtf8("k: 'inf'\n");
        QTest::newRow("str 19") << Node::string(QString::fromUtf8(".inf").toStdString())
                                << QString::fromUtf8("k: '.inf'\n");
        QTest::newRow("str 20") << Node::string(QString::fromUtf8("12:30:00").toStdString())
                                << QString::fromUtf8("k: '12:30:00'\n");
        QTest::newRow("str 21") << Node::string(QString::fromUtf8("a,b").toStdString())
                                << QString::fromUtf8("k: a,b\n");
        QTest::newRow("str 22") << Node::string(QString::fromUtf8("[x]").toStdString())
                                << QString::fromUtf8("k: '[x]'\n");
        QTest::newRow("str 23") << Node::string(QString::fromUtf8("?q").toStdString()) << QString::fromUtf8("k: ?q\n");
        QTest::newRow("str 24") << Node::string(QString::fromUtf8("c:").toStdString())
                                << QString::fromUtf8("k: 'c:'\n");
        QTest::newRow("str 25") << Node::string(QString::fromUtf8("http://x.y/z").toStdString())
                                << QString::fromUtf8("k: http://x.y/z\n");
        QTest::newRow("str 26") << Node::string(QString::fromUtf8("${a.b}").toStdString())
                                << QString::fromUtf8("k: ${a.b}\n");
        QTest::newRow("str 27") << Node::string(QString::fromUtf8("???").toStdString())
                                << QString::fromUtf8("k: ???\n");
        QTest::newRow("str 28") << Node::string(QString::fromUtf8("0.1").toStdString())
                                << QString::fromUtf8("k: '0.1'\n");
        QTest::newRow("str 29") << Node::string(QString::fromUtf8("emoji 😀").toStdString())
                                << QString::fromUtf8("k: emoji 😀\n");
        QTest::newRow("str 30") << Node::string(QString::fromUtf8("a\n\nb\n").toStdString())
                                << QString::fromUtf8("k: 'a\n\n\n  b\n\n  '\n");
        QTest::newRow("str 31") << Node::string(QString::fromUtf8("---").toStdString())
                                << QString::fromUtf8("k: '---'\n");
        QTest::newRow("str 32") << Node::string(QString::fromUtf8("x---").toStdString())
                                << QString::fromUtf8("k: x---\n");
        QTest::newRow("str 33") << Node::string(QString::fromUtf8("trail ").toStdString())
                                << QString::fromUtf8("k: 'trail '\n");
        QTest::newRow("str 34")
            << Node::string(
                   QString::fromUtf8(
                       "é üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé ü")
                       .toStdString())
            << QString::fromUtf8("k: é üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé üé\n "
                                 " üé üé üé ü\n");
        QTest::newRow("str 35")
            << Node::string(QString::fromUtf8(
                                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b c d")
                                .toStdString())
            << QString::fromUtf8(
                   "k: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n  b c d\n");
        QTest::newRow("str 36") << Node::string(QString::fromUtf8("'quoted'").toStdString())
                                << QString::fromUtf8("k: '''quoted'''\n");
        QTest::newRow("str 37") << Node::string(QString::fromUtf8("\"dq\"").toStdString())
                                << QString::fromUtf8("k: '\"dq\"'\n");
        QTest::newRow("str 38") << Node::string(QString::fromUtf8("%p").toStdString())
                                << QString::fromUtf8("k: '%p'\n");
        QTest::newRow("str 39") << Node::string(QString::fromUtf8("@at").toStdString())
                                << QString::fromUtf8("k: '@at'\n");
        QTest::newRow("str 40") << Node::string(QString::fromUtf8("*star").toStdString())
                                << QString::fromUtf8("k: '*star'\n");
        QTest::newRow("str 41") << Node::string(QString::fromUtf8("!bang").toStdString())
                                << QString::fromUtf8("k: '!bang'\n");
        QTest::newRow("str 42") << Node::string(QString::fromUtf8("&amp").toStdString())
                                << QString::fromUtf8("k: '&amp'\n");
        QTest::newRow("str 43") << Node::string(QString::fromUtf8("|pipe").toStdString())
                                << QString::fromUtf8("k: '|pipe'\n");
        QTest::newRow("str 44") << Node::string(QString::fromUtf8(">gt").toStdString())
                                << QString::fromUtf8("k: '>gt'\n");
        QTest::newRow("str 45") << Node::string(QString::fromUtf8("`bt").toStdString())
                                << QString::fromUtf8("k: '`bt'\n");
        QTest::newRow("float 1.0") << Node::floating(1.0) << QString("k: 1.0\n");
        QTest::newRow("float 0.5") << Node::floating(0.5) << QString("k: 0.5\n");
        QTest::newRow("float 1e-06") << Node::floating(1e-06) << QString("k: 1.0e-06\n");
        QTest::newRow("float 1e+16") << Node::floating(1e+16) << QString("k: 1.0e+16\n");
        QTest::newRow("float 1.5e+300") << Node::floating(1.5e+300) << QString("k: 1.5e+300\n");
        QTest::newRow("float -0.0") << Node::floating(-0.0) << QString("k: -0.0\n");
        QTest::newRow("float 123456.789") << Node::floating(123456.789) << QString("k: 123456.789\n");
        QTest::newRow("float 1e-05") << Node::floating(1e-05) << QString("k: 1.0e-05\n");
        QTest::newRow("float 0.0001") << Node::floating(0.0001) << QString("k: 0.0001\n");
        QTest::newRow("float inf") << Node::floating(std::numeric_limits<double>::infinity()) << QString("k: .inf\n");
        QTest::newRow("float -inf") << Node::floating(-std::numeric_limits<double>::infinity())
                                    << QString("k: -.inf\n");
        QTest::newRow("float 3.14159265358979") << Node::floating(3.14159265358979) << QString("k: 3.14159265358979\n");
        QTest::newRow("float 1e+22") << Node::floating(1e+22) << QString("k: 1.0e+22\n");
        QTest::newRow("float 2.5e-08") << Node::floating(2.5e-08) << QString("k: 2.5e-08\n");
        QTest::newRow("int") << Node::integer(-42) << QString("k: -42\n");
        QTest::newRow("bool") << Node::boolean(true) << QString("k: true\n");
        QTest::newRow("null") << Node::null() << QString("k: null\n");
        QTest::newRow("missing") << Node::missing() << QString("k: ???\n");
        QTest::newRow("empty dict") << Node::dict() << QString("k: {}\n");
        QTest::newRow("empty list") << Node::list() << QString("k: []\n");
    }

    void scalar()
    {
        QFETCH(Node, value);
        QFETCH(QString, yaml);
        Node root = Node::dict();
        root.set("k", value);
        QCOMPARE(QString::fromStdString(toYaml(root)), yaml);
    }

    // Block structure: lists not indented under their key, lists of dicts and lists of lists,
    // keys that need quoting, long keys in the "? key" form (all checked against OmegaConf).
    void structure()
    {
        const std::string in = "j:\n- a\n- k: 1\n  l:\n  - 1\n  - 2\n- - 3\n  - 4\nn: 1\n'y': {}\n'1': []\n"
                               "'null': x\nnested:\n  inner:\n    deep:\n    - {}\n    - []\n";
        LoadedYaml y = loadYamlText(in, "t.yaml");
        QCOMPARE(QString::fromStdString(toYaml(y.root)),
                 QString("j:\n- a\n- k: 1\n  l:\n  - 1\n  - 2\n- - 3\n  - 4\n'n': 1\n'y': {}\n'1': []\n'null': x\n"
                         "nested:\n  inner:\n    deep:\n    - {}\n    - []\n"));
        Node root = Node::dict();
        root.set(std::string(125, 'x'), Node::integer(1));
        root.set("", Node::integer(2));
        QCOMPARE(QString::fromStdString(toYaml(root)), QString("? " + QString(125, 'x') + "\n: 1\n? ''\n: 2\n"));
    }

    void emptyRoot() { QCOMPARE(QString::fromStdString(toYaml(Node::dict())), QString("{}\n")); }

    void yamlScalarHelper()
    {
        QCOMPARE(QString::fromStdString(yamlScalar(Node::string("1"))), QString("'1'"));
        QCOMPARE(QString::fromStdString(yamlScalar(Node::floating(1e-6))), QString("1.0e-06"));
        QCOMPARE(QString::fromStdString(yamlScalar(Node::null())), QString("null"));
    }

    // Whatever we emit reads back to the same tree.
    void roundTrip()
    {
        const std::string in = "a: 'x: y'\nb: [1, '2', 3.5, null, true, 'yes']\nc: \"tab\\there\"\nd: '${x}'\n"
                               "e: \"line1\\nline2\"\nf: '?\?\?'\n";
        LoadedYaml y = loadYamlText(in, "t.yaml");
        LoadedYaml back = loadYamlText(toYaml(y.root), "back.yaml");
        QVERIFY(back.root == y.root);
    }

    void json()
    {
        LoadedYaml y = loadYamlText("a: 1\nb: [x, null, 2.5]\nc: {d: '?\?\?'}\nbig: -99999999999999999999\n", "t.yaml");
        ps::core::JsonWriter w(0);
        writeJson(y.root, w);
        // Ints beyond 64 bits are numbers, as Python's json.dumps writes them.
        QCOMPARE(QString::fromStdString(w.str()),
                 QString(R"({"a":1,"b":["x",null,2.5],"c":{"d":"???"},"big":-99999999999999999999})"));
    }
};

QTEST_GUILESS_MAIN(TestYamlEmitter)
#include "tst_yamlemitter.moc"
