// The plain-data pickle decoder: values Python's own pickle writes (protocols 2-5) read back
// exactly, the memo keeps shared objects shared, every opcode that imports or calls is refused
// with the file and offset, and truncated, corrupted and hostile files fail cleanly at bounded
// memory (this test runs under ASan and UBSan).

#include "core/trace/formats/pickledecoder.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <string>

using namespace ps::core::trace::formats;

namespace {

const char *kPython = "/usr/bin/python3";

// Python's pickle.dumps of `expr` at `protocol`.
std::string pyPickle(const QString &expr, int protocol)
{
    QProcess p;
    p.start(QString::fromLatin1(kPython),
            {QStringLiteral("-c"),
             QStringLiteral("import pickle,sys; sys.stdout.buffer.write(pickle.dumps(%1, protocol=%2))")
                 .arg(expr)
                 .arg(protocol)});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return {};
    const QByteArray out = p.readAllStandardOutput();
    return std::string(out.constData(), size_t(out.size()));
}

std::string decodeError(const std::string &bytes)
{
    PickleDoc doc;
    return decodePickle(bytes, "x.pickle", doc);
}

} // namespace

class TestPickleDecoder : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!QFile::exists(QString::fromLatin1(kPython)))
            QSKIP("no /usr/bin/python3 to write pickles");
    }

    void plainValues_data()
    {
        QTest::addColumn<int>("protocol");
        for (int p = 2; p <= 5; ++p)
            QTest::newRow(qPrintable(QStringLiteral("protocol %1").arg(p))) << p;
    }

    // Every kind of plain value, at the edges of each integer opcode.
    void plainValues()
    {
        QFETCH(int, protocol);
        const std::string bytes =
            pyPickle(QStringLiteral("{'ints': [0, 255, 256, 65535, 65536, -1, 2**31-1, -2**31, 2**59-1, -2**59, 2**59, "
                                    "2**63-1, -2**63, 2**64, -2**70], 'f': -1.25e300, 't': True, 'n': None, "
                                    "'s': 'gr\\u00fc\\u00dfe', 'b': %1, 'tup': (1, ('x',), ()), 'e': {}, "
                                    "'long': 'y' * 70000}")
                         .arg(protocol >= 3 ? QStringLiteral("b'\\x00\\xff'") : QStringLiteral("None")),
                     protocol);
        QVERIFY(!bytes.empty());
        PickleDoc d;
        QCOMPARE(decodePickle(bytes, "v.pickle", d), std::string());
        const PyValue ints = d.get(d.root(), "ints");
        std::vector<std::optional<int64_t>> got;
        d.forEach(ints, [&](PyValue v) {
            got.push_back(d.toInt(v));
            return true;
        });
        const std::vector<std::optional<int64_t>> want = {0,
                                                          255,
                                                          256,
                                                          65535,
                                                          65536,
                                                          -1,
                                                          INT32_MAX,
                                                          INT32_MIN,
                                                          (int64_t(1) << 59) - 1,
                                                          -(int64_t(1) << 59),
                                                          int64_t(1) << 59,
                                                          INT64_MAX,
                                                          INT64_MIN,
                                                          std::nullopt,
                                                          std::nullopt};
        QCOMPARE(got, want);
        size_t i = 0;
        d.forEach(ints, [&](PyValue v) {
            if (i++ >= 13)
                [&] { QCOMPARE(d.kind(v), PyKind::BigInt); }();
            return true;
        });
        QCOMPARE(*d.toDouble(d.get(d.root(), "f")), -1.25e300);
        QCOMPARE(*d.toBool(d.get(d.root(), "t")), true);
        QCOMPARE(d.kind(d.get(d.root(), "n")), PyKind::None);
        QCOMPARE(d.text(d.get(d.root(), "s")), std::string_view("gr\xc3\xbc\xc3\x9f"
                                                                "e"));
        if (protocol >= 3) {
            QCOMPARE(d.kind(d.get(d.root(), "b")), PyKind::Bytes);
            QCOMPARE(d.text(d.get(d.root(), "b")), std::string_view("\x00\xff", 2));
        }
        const PyValue tup = d.get(d.root(), "tup");
        QCOMPARE(d.kind(tup), PyKind::Tuple);
        QCOMPARE(d.size(tup), size_t(3));
        QCOMPARE(d.kind(d.get(d.root(), "e")), PyKind::Dict);
        QCOMPARE(d.size(d.get(d.root(), "e")), size_t(0));
        QCOMPARE(d.text(d.get(d.root(), "long")).size(), size_t(70000));
        QVERIFY(d.get(d.root(), "missing").absent());
    }

    // Python batches APPENDS and SETITEMS by 1000: a list of 2500 and a dict of 2500 come in
    // several batches and must read back whole and in order.
    void batchedContainers()
    {
        for (int protocol : {2, 4}) {
            const std::string bytes =
                pyPickle(QStringLiteral("{'l': list(range(2500)), 'd': {str(i): i for i in range(2500)}}"), protocol);
            PickleDoc d;
            QCOMPARE(decodePickle(bytes, "b.pickle", d), std::string());
            int64_t expect = 0;
            d.forEach(d.get(d.root(), "l"), [&](PyValue v) { return *d.toInt(v) == expect++; });
            QCOMPARE(expect, int64_t(2500));
            QCOMPARE(d.size(d.get(d.root(), "d")), size_t(2500));
            QCOMPARE(*d.toInt(d.get(d.get(d.root(), "d"), "2499")), int64_t(2499));
        }
    }

    // The memo: one shared object is one node (torch shares frames lists between entries), and
    // dicts of the same keys get one shape.
    void memoSharing()
    {
        const std::string bytes =
            pyPickle(QStringLiteral("(lambda f: [{'frames': f, 'a': 1}, {'frames': f, 'a': 2}, "
                                    "{'a': 3, 'frames': [dict(f[0])]}])([{'name': 'fwd', 'line': 3}])"),
                     4);
        PickleDoc d;
        QCOMPARE(decodePickle(bytes, "m.pickle", d), std::string());
        std::vector<PyValue> items;
        d.forEach(d.root(), [&](PyValue v) {
            items.push_back(v);
            return true;
        });
        QCOMPARE(items.size(), size_t(3));
        QVERIFY(d.get(items[0], "frames") == d.get(items[1], "frames"));
        QVERIFY(!(d.get(items[0], "frames") == d.get(items[2], "frames")));
        QCOMPARE(*d.toInt(d.get(items[2], "a")), int64_t(3));
        // A later SETITEM overrides a key of the first batch, as in Python.
        std::string manual = "\x80\x04}(\x8c\x01k\x8c\x01v\x8c\x01w\x4b\x01u\x8c\x01k\x4b\x07s.";
        QCOMPARE(decodePickle(manual, "o.pickle", d), std::string());
        QCOMPARE(*d.toInt(d.get(d.root(), "k")), int64_t(7));
        QCOMPARE(d.size(d.root()), size_t(3));
    }

    void refusedOpcodes_data()
    {
        QTest::addColumn<QByteArray>("op");
        QTest::addColumn<QString>("name");
        const std::pair<const char *, const char *> ops[] = {{"c", "GLOBAL"},
                                                             {"\x93", "STACK_GLOBAL"},
                                                             {"R", "REDUCE"},
                                                             {"b", "BUILD"},
                                                             {"i", "INST"},
                                                             {"o", "OBJ"},
                                                             {"\x81", "NEWOBJ"},
                                                             {"\x92", "NEWOBJ_EX"},
                                                             {"\x82", "EXT1"},
                                                             {"\x83", "EXT2"},
                                                             {"\x84", "EXT4"},
                                                             {"P", "PERSID"},
                                                             {"Q", "BINPERSID"},
                                                             {"\x97", "NEXT_BUFFER"},
                                                             {"\x98", "READONLY_BUFFER"}};
        for (const auto &[op, name] : ops)
            QTest::newRow(name) << QByteArray(op) << QString::fromLatin1(name);
    }

    // Refused where they stand (byte 4, after PROTO and NONE), before anything could run.
    void refusedOpcodes()
    {
        QFETCH(QByteArray, op);
        QFETCH(QString, name);
        const std::string bytes = std::string("\x80\x04NN") + op.toStdString() + "os.system\nq\x00.";
        const std::string e = decodeError(bytes);
        QVERIFY2(e.find("x.pickle: byte 4: ") == 0, e.c_str());
        QVERIFY2(e.find(name.toStdString()) != std::string::npos, e.c_str());
    }

    // A pickle whose __reduce__ runs a shell command: refused, and the command never runs.
    void reduceNeverRuns()
    {
        QTemporaryDir dir;
        const QString sentinel = dir.filePath(QStringLiteral("SENTINEL"));
        for (int protocol : {2, 4, 5}) {
            const std::string bytes =
                pyPickle(QStringLiteral("type('E', (), {'__reduce__': lambda s: (__import__('os').system, "
                                        "('touch %1',))})()")
                             .arg(sentinel),
                         protocol);
            QVERIFY(!bytes.empty());
            const std::string e = decodeError(bytes);
            QVERIFY2(e.find("GLOBAL") != std::string::npos && e.find("nothing in it was run") != std::string::npos,
                     e.c_str());
            QVERIFY(!QFile::exists(sentinel));
        }
    }

    // Every prefix of a real snapshot-shaped pickle fails with the file and a reason.
    void everyPrefixFails()
    {
        const std::string bytes = pyPickle(
            QStringLiteral("{'segments': [], 'device_traces': [[{'action': 'alloc', 'addr': 2**45, 'size': 512, "
                           "'stream': 0, 'time_us': 1700000000000000, 'frames': [{'filename': 'a.py', 'line': 1, "
                           "'name': 'f'}]}] * 3], 'allocator_settings': {'x': 0.5, 'big': 2**80}}"),
            4);
        QVERIFY(bytes.size() > 100);
        QCOMPARE(decodeError(bytes), std::string());
        for (size_t n = 0; n < bytes.size(); ++n) {
            const std::string e = decodeError(bytes.substr(0, n));
            QVERIFY2(e.find("x.pickle: byte ") == 0 && e.find("truncated") != std::string::npos, e.c_str());
        }
    }

    // Random byte corruptions: decoded or refused with the file named, never a crash or hang.
    void corruptions()
    {
        const std::string bytes =
            pyPickle(QStringLiteral("{'device_traces': [[{'action': 'free_completed', 'addr': 2**45 + i, 'size': i, "
                                    "'frames': []} for i in range(40)]], 'segments': [{'blocks': [(1, 2.5, None)]}]}"),
                     4);
        QVERIFY(!bytes.empty());
        QRandomGenerator rng(26);
        for (int i = 0; i < 3000; ++i) {
            std::string b = bytes;
            for (int k = 0, n = 1 + int(rng.bounded(4)); k < n; ++k)
                b[rng.bounded(quint32(b.size()))] = char(rng.bounded(256));
            const std::string e = decodeError(b);
            QVERIFY2(e.empty() || e.find("x.pickle: byte ") == 0, e.c_str());
        }
    }

    void hostile_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason");
        auto b = [](const char *s, size_t n) { return QByteArray(s, qsizetype(n)); };
        QTest::newRow("huge BINUNICODE8")
            << b("\x80\x04\x8d\x00\x00\x00\x00\x00\x00\x00\x40.", 12) << QStringLiteral("truncated");
        QTest::newRow("huge LONG4") << b("\x80\x04\x8b\xff\xff\xff\x7f.", 8) << QStringLiteral("truncated");
        QTest::newRow("negative LONG4") << b("\x80\x04\x8b\xff\xff\xff\xff.", 8) << QStringLiteral("negative");
        QTest::newRow("huge FRAME") << b("\x80\x04\x95\xff\xff\xff\xff\xff\xff\xff\x7f.", 12)
                                    << QStringLiteral("truncated");
        QTest::newRow("memo index far away") << b("\x80\x04Nr\xff\xff\xff\xff.", 9) << QStringLiteral("memo index");
        QTest::newRow("memo never stored") << b("\x80\x04j\x05\x00\x00\x00.", 8) << QStringLiteral("never stored");
        QTest::newRow("stack underflow") << b("\x80\x04.", 3) << QStringLiteral("stack is empty");
        QTest::newRow("APPENDS without a list") << b("\x80\x04(Ne.", 6) << QStringLiteral("no container");
        QTest::newRow("SETITEMS odd") << b("\x80\x04}(Nu.", 7) << QStringLiteral("key but no value");
        QTest::newRow("append onto an int") << b("\x80\x04K\x01Na.", 7) << QStringLiteral("not a list");
        QTest::newRow("protocol 9") << b("\x80\x09N.", 4) << QStringLiteral("protocol 9");
        QTest::newRow("text opcode") << b("I1\n.", 4) << QStringLiteral("protocol 0");
        QTest::newRow("not a pickle") << b("\xff\xfe", 2) << QStringLiteral("unknown opcode");
        QTest::newRow("deep marks") << QByteArray(5000, '(') << QStringLiteral("nested deeper");
    }

    void hostile()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        const std::string e = decodeError(bytes.toStdString());
        QVERIFY2(e.find("x.pickle: byte ") == 0 && e.find(reason.toStdString()) != std::string::npos, e.c_str());
    }

    // A list that contains itself (memo): decodes; walks must bound their depth themselves.
    void cycleDecodes()
    {
        PickleDoc d;
        QCOMPARE(decodePickle(std::string("\x80\x04]\x94h\x00\x61.", 8), "c.pickle", d), std::string());
        PyValue first;
        d.forEach(d.root(), [&](PyValue v) {
            first = v;
            return false;
        });
        QVERIFY(first == d.root());
    }

    // Dropped keys are left out of every dict, shaped (all-str keys) or not, and the rest reads
    // as before; a key named so only as a value is kept.
    void droppedKeys()
    {
        const std::string bytes = pyPickle(
            QStringLiteral("[{'a': 1, 'compile_context': 'N/A', 'b': 2, 'user_metadata': ''} for _ in range(3)] + "
                           "[{1: 'x', 'compile_context': 5}, {'v': 'compile_context'}]"),
            4);
        QVERIFY(!bytes.empty());
        PickleDoc d;
        DecodeOptions o;
        o.droppedKeys = {"compile_context", "user_metadata"};
        QCOMPARE(decodePickle(bytes, "d.pickle", d, o), std::string());
        std::vector<PyValue> dicts;
        d.forEach(d.root(), [&](PyValue v) {
            dicts.push_back(v);
            return true;
        });
        QCOMPARE(dicts.size(), size_t(5));
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(d.size(dicts[i]), size_t(2));
            QCOMPARE(d.toInt(d.get(dicts[i], "b")), std::optional<int64_t>(2));
            QVERIFY(d.get(dicts[i], "compile_context").absent());
        }
        QCOMPARE(d.size(dicts[3]), size_t(1));
        QCOMPARE(d.text(d.get(dicts[4], "v")), std::string_view("compile_context"));
        // Without the option every pair is there.
        PickleDoc all;
        QCOMPARE(decodePickle(bytes, "d.pickle", all), std::string());
        size_t pairs = 0;
        all.forEach(all.root(), [&](PyValue v) {
            pairs += all.size(v);
            return true;
        });
        QCOMPARE(pairs, size_t(3 * 4 + 2 + 1));
    }
};

QTEST_GUILESS_MAIN(TestPickleDecoder)
#include "tst_pickledecoder.moc"
