// Names from traces printed to a terminal: control characters escaped, everything else byte for
// byte (#37: a title change, a screen clear and forged lines came through raw).

#include "core/common/terminaltext.h"

#include <QtTest>

using ps::core::needsTerminalEscape;
using ps::core::terminalSafe;

class TestTerminalText : public QObject
{
    Q_OBJECT
private slots:
    void plainNamesUnchanged()
    {
        for (const char *s : {"", "update_actor", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm *)",
                              "C:\\\\path\\\\x", "名前 ünïcode ✓"}) {
            QVERIFY2(!needsTerminalEscape(s), s);
            QCOMPARE(terminalSafe(s), std::string(s));
        }
    }
    void controlsEscaped()
    {
        QCOMPARE(terminalSafe("a\nb\rc\td"), std::string("a\\nb\\rc\\td"));
        QCOMPARE(terminalSafe("\x1b]0;pwned\x07title"), std::string("\\x1b]0;pwned\\x07title"));
        QCOMPARE(terminalSafe("\x1b[2J"), std::string("\\x1b[2J"));
        QCOMPARE(terminalSafe(std::string("nul\0x", 5)), std::string("nul\\x00x"));
        QCOMPARE(terminalSafe("del\x7f"), std::string("del\\x7f"));
    }
    void unicodeControlsEscaped()
    {
        QCOMPARE(terminalSafe("abc\u202Egnp.exe"), std::string("abc\\u202egnp.exe"));
        QCOMPARE(terminalSafe("x\u2066y\u2069"), std::string("x\\u2066y\\u2069"));
        QCOMPARE(terminalSafe("c1\xc2\x9b"), std::string("c1\\u009b")); // CSI as a C1 control
        QCOMPARE(terminalSafe("lrm\u200E"), std::string("lrm\\u200e"));
    }
    void invalidUtf8Escaped()
    {
        QCOMPARE(terminalSafe("bad\xff\xfe"), std::string("bad\\xff\\xfe"));
        QCOMPARE(terminalSafe("cut\xe2\x82"), std::string("cut\\xe2\\x82"));
        QVERIFY(needsTerminalEscape("\xc0\xaf")); // overlong '/'
    }
};

QTEST_GUILESS_MAIN(TestTerminalText)
#include "tst_terminaltext.moc"
