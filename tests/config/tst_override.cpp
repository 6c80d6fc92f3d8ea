// Hydra's override grammar: forms, value typing (Hydra's grammar, not YAML), quoting, lists,
// dicts, interpolations, sweeps, and parse errors with Hydra's "Error parsing override" wording.
#include "core/config/configerror.h"
#include "core/config/override.h"
#include "core/config/yamlemitter.h"

#include <QtTest>

using namespace ps::core::config;

Q_DECLARE_METATYPE(Override::Type)

namespace {
// The parsed value rendered as one YAML scalar / flow text, so rows stay readable.
QString render(const Node &n)
{
    if (n.isList()) {
        QStringList items;
        for (const Node &i : n.items())
            items << render(i);
        return "[" + items.join(", ") + "]";
    }
    if (n.isDict()) {
        QStringList items;
        for (size_t i = 0; i < n.size(); ++i)
            items << QString::fromStdString(n.keyAt(i)) + ": " + render(n.valueAt(i));
        return "{" + items.join(", ") + "}";
    }
    return QString::fromStdString(yamlScalar(n));
}
} // namespace

class TestOverride : public QObject
{
    Q_OBJECT
private slots:
    void forms_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Override::Type>("type");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("package");
        QTest::addColumn<bool>("hasValue");
        QTest::newRow("change") << "a.b=1" << Override::Type::Change << "a.b"
                                << "" << true;
        QTest::newRow("add") << "+a.c=2" << Override::Type::Add << "a.c"
                             << "" << true;
        QTest::newRow("force add") << "++a.b=3" << Override::Type::ForceAdd << "a.b"
                                   << "" << true;
        QTest::newRow("delete") << "~a.b" << Override::Type::Delete << "a.b"
                                << "" << false;
        QTest::newRow("delete with value") << "~a.b=1" << Override::Type::Delete << "a.b"
                                           << "" << true;
        QTest::newRow("group") << "db=pg" << Override::Type::Change << "db"
                               << "" << true;
        QTest::newRow("group path") << "server/db=pg" << Override::Type::Change << "server/db"
                                    << "" << true;
        QTest::newRow("group at package") << "db@backup=pg" << Override::Type::Change << "db"
                                          << "backup" << true;
        QTest::newRow("append group at package")
            << "+profile@cluster.profiling=default" << Override::Type::Add << "profile"
            << "cluster.profiling" << true;
        QTest::newRow("delete group") << "~cache" << Override::Type::Delete << "cache"
                                      << "" << false;
        QTest::newRow("dashes and digits")
            << "options.osrt-threshold=10" << Override::Type::Change << "options.osrt-threshold"
            << "" << true;
        QTest::newRow("list index") << "lst.1=20" << Override::Type::Change << "lst.1"
                                    << "" << true;
    }

    void forms()
    {
        QFETCH(QString, text);
        QFETCH(Override::Type, type);
        QFETCH(QString, key);
        QFETCH(QString, package);
        QFETCH(bool, hasValue);
        Override o = parseOverride(text.toStdString());
        QCOMPARE(int(o.type), int(type));
        QCOMPARE(QString::fromStdString(o.key), key);
        QCOMPARE(QString::fromStdString(o.package), package);
        QCOMPARE(o.hasPackage, !package.isEmpty());
        QCOMPARE(o.hasValue, hasValue);
        QCOMPARE(QString::fromStdString(o.text), text);
        QVERIFY(!o.isSweep);
    }

    void values_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("rendered");
        QTest::addColumn<int>("kind");
        QTest::newRow("int") << "1"
                             << "1" << int(Node::Kind::Int);
        QTest::newRow("negative") << "-3"
                                  << "-3" << int(Node::Kind::Int);
        QTest::newRow("int underscores") << "1_000"
                                         << "1000" << int(Node::Kind::Int);
        QTest::newRow("huge int") << "123456789012345678901234567890"
                                  << "123456789012345678901234567890" << int(Node::Kind::Int);
        QTest::newRow("huge negative int") << "-99_999_999_999_999_999_999"
                                           << "-99999999999999999999" << int(Node::Kind::Int);
        QTest::newRow("float exp") << "1e3"
                                   << "1000.0" << int(Node::Kind::Float);
        QTest::newRow("float") << "0.5"
                               << "0.5" << int(Node::Kind::Float);
        QTest::newRow("float point") << "5."
                                     << "5.0" << int(Node::Kind::Float);
        QTest::newRow("inf") << "inf"
                             << ".inf" << int(Node::Kind::Float);
        QTest::newRow("TRUE") << "TRUE"
                              << "true" << int(Node::Kind::Bool);
        QTest::newRow("False") << "False"
                               << "false" << int(Node::Kind::Bool);
        QTest::newRow("yes stays a string") << "yes"
                                            << "'yes'" << int(Node::Kind::String);
        QTest::newRow("off stays a string") << "off"
                                            << "'off'" << int(Node::Kind::String);
        QTest::newRow("null") << "null"
                              << "null" << int(Node::Kind::Null);
        QTest::newRow("NULL") << "NULL"
                              << "null" << int(Node::Kind::Null);
        QTest::newRow("quoted number") << "\"5\""
                                       << "'5'" << int(Node::Kind::String);
        QTest::newRow("single quoted space") << "'a b'"
                                             << "a b" << int(Node::Kind::String);
        QTest::newRow("double quoted comma") << "\"hello, world\""
                                             << "hello, world" << int(Node::Kind::String);
        QTest::newRow("apostrophe in double") << "\"it's\""
                                              << "it's" << int(Node::Kind::String);
        QTest::newRow("escaped quote") << "'it\\'s'"
                                       << "it's" << int(Node::Kind::String);
        QTest::newRow("colon path") << "/tmp/x:y"
                                    << "/tmp/x:y" << int(Node::Kind::String);
        QTest::newRow("inner spaces kept") << "a  b"
                                           << "a  b" << int(Node::Kind::String);
        QTest::newRow("outer spaces trimmed") << "  a b  "
                                              << "a b" << int(Node::Kind::String);
        QTest::newRow("version") << "1.2.3"
                                 << "1.2.3" << int(Node::Kind::String);
        QTest::newRow("leading zero") << "007"
                                      << "'007'" << int(Node::Kind::String);
        QTest::newRow("empty") << ""
                               << "''" << int(Node::Kind::String);
        QTest::newRow("missing") << "???"
                                 << "???" << int(Node::Kind::Missing);
        QTest::newRow("interpolation") << "${a.c}"
                                       << "${a.c}" << int(Node::Kind::Interpolation);
        QTest::newRow("string interpolation") << "pre_${a.c}_post"
                                              << "pre_${a.c}_post" << int(Node::Kind::Interpolation);
        QTest::newRow("resolver with comma") << "${oc.env:X,y}"
                                             << "${oc.env:X,y}" << int(Node::Kind::Interpolation);
        QTest::newRow("escaped interpolation") << "\\${a.c}"
                                               << "\\${a.c}" << int(Node::Kind::Interpolation);
        QTest::newRow("escaped comma") << "a\\,b"
                                       << "a,b" << int(Node::Kind::String);
        QTest::newRow("list") << "[1,2,3]"
                              << "[1, 2, 3]" << int(Node::Kind::List);
        QTest::newRow("empty list") << "[]"
                                    << "[]" << int(Node::Kind::List);
        QTest::newRow("nested list") << "[[1, a], []]"
                                     << "[[1, a], []]" << int(Node::Kind::List);
        QTest::newRow("list of quoted") << "['a,b', \"c\"]"
                                        << "[a,b, c]" << int(Node::Kind::List);
        QTest::newRow("dict") << "{a:1,b:2}"
                              << "{a: 1, b: 2}" << int(Node::Kind::Dict);
        QTest::newRow("dict spaces") << "{k: v, n: [1]}"
                                     << "{k: v, n: [1]}" << int(Node::Kind::Dict);
        QTest::newRow("empty dict") << "{}"
                                    << "{}" << int(Node::Kind::Dict);
    }

    void values()
    {
        QFETCH(QString, value);
        QFETCH(QString, rendered);
        QFETCH(int, kind);
        Override o = parseOverride(("x=" + value).toStdString());
        QCOMPARE(int(o.value.kind()), kind);
        QCOMPARE(render(o.value), rendered);
        QCOMPARE(QString::fromStdString(o.valueText), value);
    }

    // Hydra types a dict key as it types a one-token value; several tokens or an escape make a
    // string. Python's dict keeps the first of equal keys (1, true, 1.0) with the last value.
    void dictKeyKinds()
    {
        const Node d = parseOverrideValue("{1: a, 1.5: b, false: c, k: d, 0x10: e, 2\\ : f, null: g, 1.0: h, 1e3: i}");
        QCOMPARE(d.size(), size_t(8));
        const std::vector<std::pair<std::string, Node::Kind>> want = {
            {"1", Node::Kind::Int},     {"1.5", Node::Kind::Float},   {"False", Node::Kind::Bool},
            {"k", Node::Kind::String},  {"0x10", Node::Kind::String}, {"2 ", Node::Kind::String},
            {"None", Node::Kind::Null}, {"1000.0", Node::Kind::Float}};
        for (size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(d.keyAt(i), want[i].first);
            QCOMPARE(int(d.keyKindAt(i)), int(want[i].second));
        }
        QCOMPARE(d.valueAt(0).asString(), std::string("h")); // 1.0 is the key 1
        // A string lookup never finds a typed key: OmegaConf's "x.1" is the string '1'.
        QVERIFY(!d.find("1"));
        QVERIFY(d.find("k"));
        QCOMPARE(d.findKey(Node::boolean(true)), d.findKey(Node::integer(1)));
        QVERIFY(!d.findKey(Node::string("1")));
        QVERIFY(d.findKey(Node::floating(1000)));
    }

    void sweepIsFlagged()
    {
        Override o = parseOverride("profiler.trace=cuda,nvtx");
        QVERIFY(o.isSweep);
        QVERIFY(!parseOverride("x='cuda,nvtx'").isSweep);
        QVERIFY(!parseOverride("x=[cuda,nvtx]").isSweep);
    }

    void errors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("no equals") << "a.b";
        QTest::newRow("no key") << "=1";
        QTest::newRow("bad key") << "a b=1";
        QTest::newRow("unclosed list") << "x=[1,2";
        QTest::newRow("unclosed dict") << "x={a:1";
        QTest::newRow("dict without colon") << "x={a}";
        QTest::newRow("unterminated quote") << "x='abc";
        QTest::newRow("bad char") << "x=a#b";
        QTest::newRow("function") << "x=choice(a,b)";
        QTest::newRow("unterminated interpolation") << "x=${a.b";
        QTest::newRow("only plus") << "+";
        QTest::newRow("trailing garbage") << "x=[1]]";
        QTest::newRow("absurd nesting") << "x=" + QString(100000, '[');
    }

    void errors()
    {
        QFETCH(QString, text);
        try {
            parseOverride(text.toStdString());
            QFAIL("should fail");
        } catch (const ConfigError &e) {
            QVERIFY2(QString::fromStdString(e.message()).startsWith("Error parsing override '" + text + "'"), e.what());
        }
    }

    // export --as overrides relies on this: every value written back parses to itself.
    void toOverrideValueRoundTrip_data()
    {
        QTest::addColumn<QString>("value");
        for (const char *v :
             {"1", "-2.5", "true", "null", "abc", "'a b'", "'it\\'s'", "[1,2]", "{a:1,b:[x]}", "'yes'", "'5'", "'a,b'",
              "/tmp/x:y", "'#x'", "''", "inf", "'1e3'", "{k.\\{*\\}:{},a\\:b\\ :1,\\\\\\=\\,:x}",
              "{1:a,-2:b,1.5:c,true:d,1e3:e,inf:f,0x10:g,1 2:h}"})
            QTest::newRow(v) << QString(v);
    }

    void toOverrideValueRoundTrip()
    {
        QFETCH(QString, value);
        Node n = parseOverrideValue(value.toStdString());
        std::string written = toOverrideValue(n);
        QVERIFY2(parseOverrideValue(written) == n, written.c_str());
    }
};

QTEST_GUILESS_MAIN(TestOverride)
#include "tst_override.moc"
