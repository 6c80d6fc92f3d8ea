// The edit model (core/configedit/overrideedits.h): what override list a sequence of panel edits
// produces. Each row applies operations to an empty list over the same preset composition.
#include "core/config/override.h"
#include "core/configedit/overrideedits.h"

#include <QtTest>

using namespace ps::core::configedit;
using ps::core::config::Node;
using ps::core::config::parseOverrideValue;

namespace {
const Node &preset()
{
    static const Node n =
        parseOverrideValue("{cluster: {profiling: {backend: nsight, worker_groups: [ActorGroup, RolloutGroup], "
                           "options: {t: 'cuda,nvtx', osrt-threshold: 1000}}}, runner: {log_path: ../results}}");
    return n;
}

// "set KEY VALUE" (VALUE in override syntax), "del KEY", "group KEY OPTION PRESET"
OverrideList apply(const QStringList &ops)
{
    OverrideList list;
    EditContext ctx{&preset(), &preset()};
    for (const QString &op : ops) {
        const QStringList p = op.split(' ');
        if (p[0] == "set")
            list = withValue(list, p[1].toStdString(), parseOverrideValue(p.mid(2).join(' ').toStdString()), ctx);
        else if (p[0] == "setstr")
            list = withValue(list, p[1].toStdString(), Node::string(p.mid(2).join(' ').toStdString()), ctx);
        else if (p[0] == "del")
            list = withoutKey(list, p[1].toStdString(), ctx);
        else if (p[0] == "group")
            list = withGroupChoice(list, p[1].toStdString(), p[2].toStdString(), p[3].toStdString());
    }
    return list;
}
} // namespace

class TestOverrideEdits : public QObject
{
    Q_OBJECT
private slots:
    void edits_data()
    {
        QTest::addColumn<QStringList>("ops");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("change existing") << QStringList{"set cluster.profiling.backend rocprof_sys"}
                                         << QStringList{"cluster.profiling.backend=rocprof_sys"};
        QTest::newRow("add absent") << QStringList{"set cluster.profiling.steps [3]"}
                                    << QStringList{"+cluster.profiling.steps=[3]"};
        QTest::newRow("same key rewrites in place")
            << QStringList{"set cluster.profiling.steps [3]", "set runner.log_path /x",
                           "set cluster.profiling.steps [3,10]"}
            << QStringList{"+cluster.profiling.steps=[3,10]", "runner.log_path=/x"};
        QTest::newRow("back to preset drops")
            << QStringList{"set runner.log_path /x", "set runner.log_path ../results"} << QStringList{};
        QTest::newRow("unchanged value adds nothing")
            << QStringList{"set cluster.profiling.backend nsight"} << QStringList{};
        QTest::newRow("delete existing") << QStringList{"del cluster.profiling.options.osrt-threshold"}
                                         << QStringList{"~cluster.profiling.options.osrt-threshold"};
        QTest::newRow("delete added drops it")
            << QStringList{"set cluster.profiling.steps [3]", "del cluster.profiling.steps"} << QStringList{};
        QTest::newRow("delete changed") << QStringList{"set runner.log_path /x", "del runner.log_path"}
                                        << QStringList{"~runner.log_path"};
        QTest::newRow("set after delete")
            << QStringList{"del runner.log_path", "set runner.log_path /y"} << QStringList{"runner.log_path=/y"};
        QTest::newRow("delete then back to preset")
            << QStringList{"del runner.log_path", "set runner.log_path ../results"} << QStringList{};
        QTest::newRow("delete absent is nothing") << QStringList{"del cluster.profiling.flags"} << QStringList{};
        QTest::newRow("parent edit supersedes children")
            << QStringList{"set cluster.profiling.options.t cuda", "del cluster.profiling.options"}
            << QStringList{"~cluster.profiling.options"};
        QTest::newRow("comma string is quoted") << QStringList{"setstr cluster.profiling.options.t cuda,osrt"}
                                                << QStringList{"cluster.profiling.options.t='cuda,osrt'"};
        QTest::newRow("list of names") << QStringList{"set cluster.profiling.worker_groups [ActorGroup]"}
                                       << QStringList{"cluster.profiling.worker_groups=[ActorGroup]"};
        QTest::newRow("group choice") << QStringList{"group actor@actor_rollout_ref.actor megatron dp_actor"}
                                      << QStringList{"actor@actor_rollout_ref.actor=megatron"};
        QTest::newRow("group choice back")
            << QStringList{"group actor@a.b megatron dp_actor", "group actor@a.b dp_actor dp_actor"} << QStringList{};
    }
    void edits()
    {
        QFETCH(QStringList, ops);
        QFETCH(QStringList, expected);
        QStringList got;
        for (const auto &o : apply(ops))
            got << QString::fromStdString(o);
        QCOMPARE(got, expected);
    }

    void overrideKeys()
    {
        QCOMPARE(overrideKey("+a.b=[1,2]"), std::string("a.b"));
        QCOMPARE(overrideKey("~a.b"), std::string("a.b"));
        QCOMPARE(overrideKey("++a=1"), std::string("a"));
        QCOMPARE(overrideKey("+profile@cluster.profiling=default"), std::string("profile@cluster.profiling"));
        QCOMPARE(overrideKey("=broken"), std::string());
    }
};

QTEST_GUILESS_MAIN(TestOverrideEdits)
#include "tst_overrideedits.moc"
