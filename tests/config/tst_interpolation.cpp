// OmegaConf interpolation: absolute, relative, string, nested, escaped, the oc.* resolvers, and
// located reports for what cannot be resolved. Expected values follow OmegaConf 2.2.2
// (checked by hand with OmegaConf.to_yaml(cfg, resolve=True)).
#include "core/config/configerror.h"
#include "core/config/interpolation.h"
#include "core/config/override.h"
#include "core/config/yamlemitter.h"
#include "core/config/yamlloader.h"

#include <QtTest>

using namespace ps::core::config;

namespace {

const char *const kTree = R"(a:
  b: 1
  c: ${.b}
  d:
    e: ${..b}
    f: ${a.b}
key: b
top: T
f: 0.5
t: true
n: null
mand: ???
lst: [1, "${a.b}", "${..top}"]
s: pre_${a.b}_post
cat: ${a.b}${a.c}
sel: ${a.${key}}
esc: \${a.b}
ref: ${a.d}
fs: f=${f} t=${t} n=${n}
env_set: ${oc.env:PS_TEST_VAR}
env_default: ${oc.env:PS_TEST_UNSET,fallback}
env_null: ${oc.env:PS_TEST_UNSET,null}
sel_hit: ${oc.select:a.b,fallback}
sel_miss: ${oc.select:a.nope,fallback}
sel_mand: ${oc.select:mand,7}
sel_rel: ${oc.select:.top}
sel_nodefault: ${oc.select:a.nope}
dec_int: ${oc.decode:"123"}
dec_list: ${oc.decode:"[1, ${a.b}]"}
create: '${oc.create:"{x: 1}"}'
tool: ${oc.select:global_profiler.tool,null}
)";

EnvLookup testEnv()
{
    return [](const std::string &name) -> std::optional<std::string> {
        if (name == "PS_TEST_VAR")
            return std::string("42");
        return std::nullopt;
    };
}

Node tree()
{
    return loadYamlText(kTree, "/conf/interp.yaml").root;
}

} // namespace

class TestInterpolation : public QObject
{
    Q_OBJECT
private slots:
    void resolveValue_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("yaml"); // the resolved value as to_yaml prints it
        QTest::newRow("relative .b") << "a.c"
                                     << "1";
        QTest::newRow("relative ..b") << "a.d.e"
                                      << "1";
        QTest::newRow("absolute") << "a.d.f"
                                  << "1";
        QTest::newRow("list item keeps type") << "lst.1"
                                              << "1";
        QTest::newRow("list item relative") << "lst.2"
                                            << "T";
        QTest::newRow("string interpolation") << "s"
                                              << "pre_1_post";
        QTest::newRow("concatenation is a string") << "cat"
                                                   << "'11'";
        QTest::newRow("nested key") << "sel"
                                    << "1";
        QTest::newRow("escaped") << "esc"
                                 << "${a.b}";
        QTest::newRow("python str of scalars") << "fs"
                                               << "f=0.5 t=True n=None";
        QTest::newRow("oc.env set (a string)") << "env_set"
                                               << "'42'";
        QTest::newRow("oc.env default") << "env_default"
                                        << "fallback";
        QTest::newRow("oc.env null default") << "env_null"
                                             << "null";
        QTest::newRow("oc.select hit") << "sel_hit"
                                       << "1";
        QTest::newRow("oc.select miss") << "sel_miss"
                                        << "fallback";
        QTest::newRow("oc.select on ???") << "sel_mand"
                                          << "7";
        QTest::newRow("oc.select relative") << "sel_rel"
                                            << "T";
        QTest::newRow("oc.select without default") << "sel_nodefault"
                                                   << "null";
        QTest::newRow("verl tool select") << "tool"
                                          << "null";
        QTest::newRow("oc.decode int") << "dec_int"
                                       << "123";
    }

    void resolveValue()
    {
        QFETCH(QString, key);
        QFETCH(QString, yaml);
        Node v = ps::core::config::resolveValue(tree(), key.toStdString(), testEnv());
        QCOMPARE(QString::fromStdString(yamlScalar(v)), yaml);
    }

    void containers()
    {
        Node root = tree();
        Node ref = ps::core::config::resolveValue(root, "ref", testEnv());
        QCOMPARE(QString::fromStdString(toYaml(ref)), QString("e: 1\nf: 1\n"));
        Node list = ps::core::config::resolveValue(root, "dec_list", testEnv());
        QCOMPARE(QString::fromStdString(toYaml(list)), QString("- 1\n- 1\n"));
        Node created = ps::core::config::resolveValue(root, "create", testEnv());
        QCOMPARE(QString::fromStdString(toYaml(created)), QString("x: 1\n"));
    }

    // oc.dict.keys / oc.dict.values / oc.deprecated, each result checked against OmegaConf 2.2's
    // to_yaml(resolve=True) of the same tree.
    void dictResolversAndDeprecated()
    {
        const Node root = loadYamlText(R"(workers:
  actor: {gpus: 4, nodes: 1}
  rollout: {gpus: 2, nodes: "${n}"}
n: 3
alias: ${workers}
names: ${oc.dict.keys:workers}
vals: ${oc.dict.values:workers}
rel:
  a: 1
  b: 2
  ks: ${oc.dict.keys:.}
  vs: ${oc.dict.values:..workers}
viaalias: ${oc.dict.keys:alias}
new_key: 5
old_key: ${oc.deprecated:new_key}
of_list: ${oc.dict.keys:lst}
lst: [1]
gone: ${oc.dict.keys:nope}
)",
                                       "/conf/dk.yaml")
                              .root;
        auto yamlOf = [&](const char *key) {
            return QString::fromStdString(toYaml(ps::core::config::resolveValue(root, key, testEnv())));
        };
        QCOMPARE(yamlOf("names"), QString("- actor\n- rollout\n"));
        QCOMPARE(yamlOf("vals"), QString("- gpus: 4\n  nodes: 1\n- gpus: 2\n  nodes: 3\n"));
        QCOMPARE(yamlOf("rel.ks"), QString("- a\n- b\n- ks\n- vs\n"));
        QCOMPARE(yamlOf("rel.vs"), yamlOf("vals"));
        QCOMPARE(yamlOf("viaalias"), yamlOf("names"));
        QCOMPARE(yamlScalar(ps::core::config::resolveValue(root, "old_key", testEnv())), std::string("5"));
        for (const auto &[key, message] :
             {std::pair{"of_list", "`oc.dict.keys` cannot be applied to objects of type: ListConfig"},
              std::pair{"gone", "Key not found: 'nope'"}}) {
            try {
                ps::core::config::resolveValue(root, key, testEnv());
                QFAIL(key);
            } catch (const ConfigError &e) {
                QVERIFY2(QString::fromStdString(e.message()).contains(message), e.message().c_str());
            }
        }
    }

    void resolveAllReportsWhatItCannot()
    {
        Node root = loadYamlText("a: 1\nmiss: ${a.nope}\nmand: ???\nto_mand: ${mand}\nenv: ${oc.env:PS_TEST_UNSET}\n"
                                 "ok: ${a}\ncyc1: ${cyc2}\ncyc2: ${cyc1}\nbad: ${oc.nosuch:1}\nopen: ${a\n",
                                 "/conf/c.yaml")
                        .root;
        std::vector<ConfigError> problems;
        Node out = resolveAll(root, &problems, testEnv());
        QCOMPARE(QString::fromStdString(toYaml(out)),
                 QString("a: 1\nmiss: ${a.nope}\nmand: ???\nto_mand: ${mand}\nenv: ${oc.env:PS_TEST_UNSET}\nok: 1\n"
                         "cyc1: ${cyc2}\ncyc2: ${cyc1}\nbad: ${oc.nosuch:1}\nopen: ${a\n"));
        QStringList keys;
        for (const ConfigError &p : problems) {
            keys << QString::fromStdString(p.keyPath());
            QCOMPARE(QString::fromStdString(p.where().file), QString("/conf/c.yaml"));
            QVERIFY(p.where().line > 0);
        }
        QCOMPARE(keys, (QStringList{"miss", "to_mand", "env", "cyc1", "cyc2", "bad", "open"}));
        QVERIFY(QString::fromStdString(problems[0].message()).contains("Interpolation key 'a.nope' not found"));
        QCOMPARE(problems[0].where().line, 2);
        QVERIFY(QString::fromStdString(problems[1].message()).contains("Missing mandatory value: mand"));
        QVERIFY(
            QString::fromStdString(problems[2].message()).contains("Environment variable 'PS_TEST_UNSET' not found"));
        QVERIFY(QString::fromStdString(problems[3].message()).contains("cycle"));
        QVERIFY(QString::fromStdString(problems[5].message()).contains("Unsupported interpolation type oc.nosuch"));
    }

    // An override's typed keys ({1: a}) are not found by ${x.1}, which names the string key
    // '1' (real Hydra: "Interpolation key 'x.1' not found"); resolving a dict keeps its key kinds.
    void typedKeysFromOverrides()
    {
        Node root = loadYamlText("a: 1\ns:\n  '1': str\ncopy: ${x}\nbyint: ${x.1}\nbystr: ${s.1}\n"
                                 "keys: ${oc.dict.keys:x}\n",
                                 "/conf/c.yaml")
                        .root;
        root.set("x", parseOverrideValue("{1: a, true: b, 1.5: c, k: d}"));
        std::vector<ConfigError> problems;
        Node out = resolveAll(root, &problems, testEnv());
        QCOMPARE(QString::fromStdString(toYaml(out)),
                 QString("a: 1\ns:\n  '1': str\ncopy:\n  1: b\n  1.5: c\n  k: d\nbyint: ${x.1}\nbystr: str\n"
                         "keys:\n- 1\n- 1.5\n- k\nx:\n  1: b\n  1.5: c\n  k: d\n"));
        QCOMPARE(problems.size(), size_t(1));
        QCOMPARE(QString::fromStdString(problems[0].keyPath()), QString("byint"));
        QVERIFY(QString::fromStdString(problems[0].message()).contains("Interpolation key 'x.1' not found"));
    }

    // Fan-out references grow exponentially; resolution stops with an error instead of hanging.
    void exponentialFanOutIsBounded()
    {
        std::string yaml = "v0: x\n";
        for (int i = 1; i <= 20; ++i)
            yaml += "v" + std::to_string(i) + ": ${v" + std::to_string(i - 1) + "}${v" + std::to_string(i - 1) + "}\n";
        Node root = loadYamlText(yaml, "/conf/fan.yaml").root;
        std::vector<ConfigError> problems;
        Node out = resolveAll(root, &problems, testEnv());
        QVERIFY(!problems.empty());
        QVERIFY2(QString::fromStdString(problems.back().message()).contains("too complex"), problems.back().what());
        QCOMPARE(QString::fromStdString(out.find("v3")->asString()), QString("xxxxxxxx"));
    }

    void resolveValueThrowsWithKey()
    {
        try {
            ps::core::config::resolveValue(tree(), "nosuch", testEnv());
            QFAIL("should fail");
        } catch (const ConfigError &e) {
            QCOMPARE(QString::fromStdString(e.keyPath()), QString("nosuch"));
        }
        Node root = loadYamlText("x: ${y}\n", "/conf/d.yaml").root;
        try {
            ps::core::config::resolveValue(root, "x", testEnv());
            QFAIL("should fail");
        } catch (const ConfigError &e) {
            QCOMPARE(e.where().line, 1);
            QVERIFY(QString::fromStdString(e.format()).startsWith("/conf/d.yaml:1:4: error: cannot resolve 'x'"));
        }
    }
};

QTEST_GUILESS_MAIN(TestInterpolation)
#include "tst_interpolation.moc"
