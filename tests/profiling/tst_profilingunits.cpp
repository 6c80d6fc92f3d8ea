// Units under the analysis: Python conversions and reprs used in quoted messages, cluster path
// arithmetic, the command renderers, verl's step windows, the rule catalogue.
#include "core/config/node.h"
#include "core/profiling/analysis.h"
#include "core/profiling/nsysoutput.h"
#include "core/profiling/pathutil.h"
#include "core/profiling/pyconvert.h"
#include "core/profiling/pythonrepr.h"
#include "core/profiling/rlinflaunch.h"
#include "core/profiling/rulecatalogue.h"
#include "core/profiling/verllaunch.h"
#include "core/profiling/verlschema.h"

#include <QtTest>

#include <set>

using namespace ps::core::profiling;
using ps::core::config::Node;

class TestProfilingUnits : public QObject
{
    Q_OBJECT
private slots:
    void paths_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("cwd");
        QTest::addColumn<QString>("absolute");
        QTest::newRow("relative log path") << "../results/exp/profiling"
                                           << "/opt/RLinf"
                                           << "/opt/results/exp/profiling";
        QTest::newRow("absolute wins") << "/x/y"
                                       << "/opt"
                                       << "/x/y";
        QTest::newRow("dots and slashes") << "a//./b/../c/"
                                          << "/w"
                                          << "/w/a/c";
        QTest::newRow("never above root") << "../../x"
                                          << "/"
                                          << "/x";
    }
    void paths()
    {
        QFETCH(QString, path);
        QFETCH(QString, cwd);
        QFETCH(QString, absolute);
        QCOMPARE(QString::fromStdString(absolutePath(path.toStdString(), cwd.toStdString())), absolute);
    }

    void dirAndBase()
    {
        QCOMPARE(dirName("/abs/out/rlinf_profile_A_0_%p"), std::string("/abs/out"));
        QCOMPARE(baseName("/abs/out/rlinf_profile_A_0_%p"), std::string("rlinf_profile_A_0_%p"));
        QCOMPARE(joinPath("/a/", "b"), std::string("/a/b"));
    }

    void pythonIntConversion_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qlonglong>("value");
        QTest::addColumn<QString>("error");
        QTest::newRow("digits") << "3" << true << 3LL << "";
        QTest::newRow("spaces and sign") << " -4 " << true << -4LL << "";
        QTest::newRow("underscores") << "1_000" << true << 1000LL << "";
        QTest::newRow("float text") << "4.5" << false << 0LL << "invalid literal for int() with base 10: '4.5'";
        QTest::newRow("leading underscore") << "_1" << false << 0LL << "invalid literal for int() with base 10: '_1'";
        QTest::newRow("word") << "three" << false << 0LL << "invalid literal for int() with base 10: 'three'";
    }
    void pythonIntConversion()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qlonglong, value);
        QFETCH(QString, error);
        std::string err;
        const auto n = pythonInt(Node::string(text.toStdString()), err);
        QCOMPARE(n.has_value(), ok);
        if (ok)
            QCOMPARE(qlonglong(*n), value);
        else
            QCOMPARE(QString::fromStdString(err), error);
    }

    void pythonIntOfOtherKinds()
    {
        std::string err;
        QCOMPARE(*pythonInt(Node::floating(4.9), err), 4LL);
        QCOMPARE(*pythonInt(Node::floating(-4.9), err), -4LL);
        QCOMPARE(*pythonInt(Node::boolean(true), err), 1LL);
        QVERIFY(!pythonInt(Node::null(), err));
        QCOMPARE(err, std::string("int() argument must be a string, a bytes-like object or a real number, not "
                                  "'NoneType'"));
    }

    void reprs()
    {
        Node d = Node::dict();
        d.set("a", Node::integer(1));
        d.set("b's", Node::boolean(true));
        Node l = Node::list();
        l.append(Node::string("x"));
        l.append(Node::null());
        d.set("c", l);
        QCOMPARE(pythonRepr(d), std::string("{'a': 1, \"b's\": True, 'c': ['x', None]}"));
        QCOMPARE(pythonStr(Node::boolean(false)), std::string("False"));
        QCOMPARE(pythonTypeName(l), std::string("<class 'omegaconf.listconfig.ListConfig'>"));
        QCOMPARE(pythonTypeName(Node::string("s")), std::string("<class 'str'>"));
        QCOMPARE(pythonListRepr(std::vector<std::string>{"nsight", "rocprof_sys"}),
                 std::string("['nsight', 'rocprof_sys']"));
        QVERIFY(pythonTruthy(Node::string("false"))); // the trap behind rlinf.enabled-not-bool
        QVERIFY(!pythonTruthy(Node::integer(0)));
    }

    void rlinfNsysTokenOrder()
    {
        RLinfProfiling p;
        p.backend = "nsight";
        p.outputDir = "/o";
        p.flags = {"x", "python-backtrace"};
        p.options = {{"t", "cuda"}, {"capture-range", "cudaProfilerApi"}};
        QCOMPARE(rlinfNsysArgv(p, "ActorGroup:3", "/py", "/tmp"),
                 (std::vector<std::string>{"nsys", "profile", "-x", "--python-backtrace", "-t", "cuda",
                                           "--capture-range=cudaProfilerApi", "-o", "/o/rlinf_profile_ActorGroup_3_%p",
                                           "/py"}));
        p.options.push_back({"o", "/mine/r_%p"}); // only `o` suppresses the default prefix
        const auto argv = rlinfNsysArgv(p, "ActorGroup:3", "/py", "/tmp");
        QCOMPARE(std::count(argv.begin(), argv.end(), std::string("-o")), 1L);
        QCOMPARE(argv[argv.size() - 2], std::string("/mine/r_%p"));
        p.outputDir.clear(); // RLinf's fallback: the temp dir
        QCOMPARE(rlinfOutputPrefix(p, "Env:0", "/var/tmp"), std::string("/var/tmp/rlinf_profile_Env_0_%p"));
        QCOMPARE(rlinfOutputPrefix(p, "G:0:1 x", "/t"), std::string("/t/rlinf_profile_G_0_1_x_%p"));
    }

    void rlinfRocprofEnvUserWins()
    {
        RLinfProfiling p;
        p.outputDir = "/abs/out";
        p.env = {{"ROCPROFSYS_OUTPUT_PATH", "/mine"}, {"X", "1"}};
        const auto env = rlinfRocprofEnv(p, "ActorGroup:0", "/tmp");
        QCOMPARE(env.size(), size_t(4));
        QCOMPARE(env[1], (std::pair<std::string, std::string>{"ROCPROFSYS_OUTPUT_PATH", "/mine"})); // in place
        QCOMPARE(env[3].first, std::string("X"));
    }

    void rayRendering()
    {
        const auto c = rayNsightCommand({{"t", "cuda"}, {"o", "mine_%p"}, {"kill", "none"}}, "/s");
        QCOMPARE(c.argv, (std::vector<std::string>{"nsys", "profile", "-t", "cuda", "--kill=none", "-o",
                                                   "/s/logs/nsight/mine_%p", "python"}));
        QCOMPARE(c.command, std::string("nsys profile -t cuda --kill=none -o /s/logs/nsight/mine_%p python"));
    }

    void verlWindowsAndDefaultRepeat()
    {
        VerlProfiling p;
        p.steps = std::vector<long long>{5, 1, 2};
        p.continuous = true;
        QCOMPARE(verlWindows(p), (std::vector<std::vector<long long>>{{1, 2}, {5}}));
        p.continuous = false;
        QCOMPARE(verlWindowCount(p), 3LL);
        p.workerOptions = OptionList{{"capture-range-end", ""}};
        p.workerCaptureRangeEndNull = true;
        QCOMPARE(verlWorkerNsightOptions(p).front().second, std::string("repeat-shutdown:18"));
    }

    void verlRankRule()
    {
        VerlRoleProfiler r;
        r.enable = true;
        QVERIFY(r.profilesRank(0, false));
        QVERIFY(!r.profilesRank(1, false));
        QVERIFY(!r.profilesRank(0, true)); // the old schema has no rank-0 default
        r.ranks = {2, 3};
        QVERIFY(r.profilesRank(3, false) && !r.profilesRank(0, false));
        r.allRanks = true;
        QVERIFY(r.profilesRank(99, true));
    }

    // The -o fix both frameworks' rules offer, and what a plan predicts from an -o.
    void nsysOutputNames()
    {
        QCOMPARE(withRankVariable("worker_process_%p"), std::string("worker_process_rank%q{RANK}_%p"));
        QCOMPARE(withRankVariable("/runs/r-%p.nsys-rep"), std::string("/runs/r_rank%q{RANK}-%p.nsys-rep"));
        QCOMPARE(withRankVariable("/runs/x"), std::string("/runs/x_rank%q{RANK}"));
        QVERIFY(namesRankVariable(withRankVariable("w_%p")));
        QVERIFY(namesRankVariable("rank%q{OMPI_COMM_WORLD_RANK}/w_%p"));
        QVERIFY(namesRankVariable("w_%q{SLURM_PROCID}"));
        QVERIFY(!namesRankVariable("worker_process_%p"));
        QVERIFY(!namesRankVariable("RANK_%p")); // the word, not the variable
        QCOMPARE(expandNsysOutput("d/%h/w_rank%q{RANK}_of_%q{WORLD_SIZE}_%p", {{"RANK", "3"}}),
                 std::string("d/<hostname>/w_rank3_of_<WORLD_SIZE>_<PID>"));
        QCOMPARE(expandNsysOutput("w_%q{RANK", {}), std::string("w_%q{RANK")); // unclosed: as written
    }

    void catalogue()
    {
        std::set<std::string_view> ids;
        for (const auto &r : ruleCatalogue()) {
            QVERIFY2(ids.insert(r.id).second, std::string(r.id).c_str());
            QVERIFY(r.id.rfind("rlinf.", 0) == 0 || r.id.rfind("verl.", 0) == 0);
            QVERIFY(!r.summary.empty());
            QCOMPARE(findRule(r.id), &r);
        }
        QVERIFY(!findRule("no.such-rule"));
    }

    void diagnosticFormat()
    {
        Diagnostic d{Severity::Warning, "rlinf.x", "msg", "a.b", "/f.yaml", 3, 7};
        QCOMPARE(d.format(), std::string("/f.yaml:3:7: warning: msg [rlinf.x]"));
        d.file.clear();
        QCOMPARE(d.format(), std::string("warning: msg [rlinf.x]"));
    }

    void frameworkDetection()
    {
        Node verl = Node::dict();
        verl.set("global_profiler", Node::dict());
        QCOMPARE(detectFramework(verl), Framework::Verl);
        Node rlinf = Node::dict();
        rlinf.set("cluster", Node::dict());
        QCOMPARE(detectFramework(rlinf), Framework::RLinf);
        QCOMPARE(detectFramework(Node::dict()), Framework::Unknown);
        // No composed config: an empty, usable result rather than a crash.
        QVERIFY(analyze(AnalysisInput{})->launch.workers.empty());
    }
};

QTEST_GUILESS_MAIN(TestProfilingUnits)
#include "tst_profilingunits.moc"
