// RLinf's cluster.component_placement as its ComponentPlacement reads it
// (rlinf/scheduler/placement/placement.py): Format (1) strings with resource:process ranks,
// Format (2) {node_group, placement} with ranks relative to the node groups, hardware groups,
// the reserved `node` label, and the forms RLinf refuses.
#include "core/config/yamlloader.h"
#include "core/profiling/rlinfplacement.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace ps::core;
using profiling::placeRLinfComponent;

namespace {

config::Node yaml(const char *text)
{
    return config::loadYamlText(text, "<test>").root;
}

// Two nodes of 8 GPUs; node groups "a" = node 1, "b" = node 0, "franka" = node 1 with two robots.
profiling::RLinfPlacementInput twoNodes()
{
    const config::Node groups = yaml("- {label: a, node_ranks: 1}\n- {label: b, node_ranks: '0'}\n"
                                     "- label: franka\n  node_ranks: 1\n  hardware:\n    type: Franka\n"
                                     "    configs: [{robot_ip: x, node_rank: 1}, {robot_ip: y, node_rank: 1}]\n");
    return {2, 8, profiling::readRLinfNodeGroups(&groups)};
}

QList<long long> place(const char *value, QString *error = nullptr)
{
    std::vector<long long> gpus;
    std::string err;
    const bool ok = placeRLinfComponent(yaml(value), twoNodes(), gpus, err);
    if (error)
        *error = QString::fromStdString(err);
    if (!ok)
        return {-1};
    return QList<long long>(gpus.begin(), gpus.end());
}

} // namespace

class TestRLinfPlacement : public QObject
{
    Q_OBJECT
private slots:
    void forms_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QList<long long>>("gpus"); // per process rank; {-1}: refused
        QTest::newRow("int") << "3" << QList<long long>{3};
        QTest::newRow("range") << "0-3" << QList<long long>{0, 1, 2, 3};
        QTest::newRow("all") << "all" << QList<long long>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
        QTest::newRow("ranges") << "'0-1,4'" << QList<long long>{0, 1, 4};
        QTest::newRow("ALL") << "ALL" << QList<long long>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
        QTest::newRow("int() digits") << "'1_0 - 1_1'" << QList<long long>{10, 11}; // Python's int("1_0")
        // 8 processes on 4 GPUs: two per GPU; 2 processes on 4 GPUs: each holds two, placed on the first.
        QTest::newRow("shared") << "'0-3:0-7'" << QList<long long>{0, 0, 1, 1, 2, 2, 3, 3};
        QTest::newRow("spread") << "'0-3:0-1'" << QList<long long>{0, 2};
        // RLinf's docstring example: processes 4-6 implicit on resources 3-5.
        QTest::newRow("mixed") << "'0-1:0-3,3-5,7-10:7-14'"
                               << QList<long long>{0, 0, 1, 1, 3, 4, 5, 7, 7, 8, 8, 9, 9, 10, 10};
        // Format (2): ranks count within the node group.
        QTest::newRow("group") << "{node_group: a, placement: 0}" << QList<long long>{8};
        QTest::newRow("group range") << "{node_group: a, placement: 0-7}"
                                     << QList<long long>{8, 9, 10, 11, 12, 13, 14, 15};
        QTest::newRow("groups a,b") << "{node_group: 'a,b', placement: '7-8'}" << QList<long long>{15, 0};
        QTest::newRow("groups list") << "{node_group: [b, a], placement: '7-8'}" << QList<long long>{7, 8};
        QTest::newRow("no group") << "{placement: 9}" << QList<long long>{9};
        QTest::newRow("robots") << "{node_group: franka, placement: '0-1'}" << QList<long long>{8, 8};
        QTest::newRow("nodes") << "{node_group: node, placement: '0-1'}" << QList<long long>{0, 8};
        // Refused by RLinf: a list is read through str() ("[0, 1]"), descending ranges, process
        // ranks not starting at 0, counts that do not divide.
        QTest::newRow("list") << "[0, 1]" << QList<long long>{-1};
        // Beyond the GPUs assumed (2 x 8): only RLinf knows the real count; the numbering continues.
        QTest::newRow("beyond assumed") << "'15-16'" << QList<long long>{15, 16};
        QTest::newRow("descending") << "'4-5,0-1'" << QList<long long>{-1};
        QTest::newRow("process gap") << "'0-1:2-3'" << QList<long long>{-1};
        QTest::newRow("indivisible") << "'0-2:0-3'" << QList<long long>{-1};
        QTest::newRow("process ranks all") << "'0-3:all'" << QList<long long>{-1};
        QTest::newRow("process ranks ALL") << "'0-3:ALL'" << QList<long long>{-1};
        QTest::newRow("no placement") << "{node_group: a}" << QList<long long>{-1};
        QTest::newRow("unknown group") << "{node_group: gpu, placement: 0}" << QList<long long>{-1};
    }

    void forms()
    {
        QFETCH(QString, value);
        QFETCH(QList<long long>, gpus);
        QString error;
        const QByteArray text = value.toUtf8();
        QCOMPARE(place(text.constData(), &error), gpus);
        QCOMPARE(error.isEmpty(), gpus != QList<long long>{-1});
    }

    void refusalsSayWhy()
    {
        QString error;
        place("{node_group: gpu, placement: 0}", &error);
        QCOMPARE(error, QString("Node group not found with label \"gpu\" (cluster.node_groups)."));
        place("{node_group: a}", &error);
        QVERIFY2(error.startsWith("placement must be specified in component_placement config"), qPrintable(error));
        place("'0-2:0-3'", &error);
        QVERIFY2(error.startsWith("The number of process ranks 4 must be divisible by the number of resource ranks 3"),
                 qPrintable(error));
    }

    // A hostile size is refused before anything is listed per node, per GPU or per process (each
    // of these used to take gigabytes).
    void hugeSizesAreRefusedFast()
    {
        QElapsedTimer timer;
        timer.start();
        const config::Node groups = yaml("- {label: many, node_ranks: 0-999999}\n");
        const profiling::RLinfPlacementInput huge{100000000, 8, profiling::readRLinfNodeGroups(&groups)};
        for (const char *value : {"0", "{node_group: node, placement: 0}", "{node_group: many, placement: 0}"}) {
            std::vector<long long> gpus;
            std::string error;
            QVERIFY2(!placeRLinfComponent(yaml(value), huge, gpus, error), value);
            QVERIFY2(
                QString::fromStdString(error).startsWith("The selected node groups offer more than 1000000 resources"),
                error.c_str());
            QVERIFY(gpus.empty());
        }
        // As many process ranks as resources ranks allowed, twice over: the total is refused.
        std::vector<long long> gpus;
        std::string error;
        QVERIFY(!placeRLinfComponent(yaml("'0:0-999999,1:1000000-1999999'"), twoNodes(), gpus, error));
        QVERIFY2(QString::fromStdString(error).startsWith("More than 1000000 process ranks"), error.c_str());
        // Up to the cap, placement works: 125000 nodes of 8 GPUs.
        QVERIFY(placeRLinfComponent(yaml("'0,999999'"), {125000, 8, {}}, gpus, error));
        QCOMPARE(gpus, (std::vector<long long>{0, 999999}));
        QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed()) + " ms"));
    }
};

QTEST_GUILESS_MAIN(TestRLinfPlacement)
#include "tst_rlinfplacement.moc"
