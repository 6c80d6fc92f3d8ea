// Line <-> key map of the composed YAML pane (core/configedit/yamlkeymap.h), on a hand-made tree and
// on verl's real ppo_trainer composition: every key's line starts with that key's name.
#include "core/config/composer.h"
#include "core/config/override.h"
#include "core/config/yamlemitter.h"
#include "core/configedit/linediff.h"
#include "core/configedit/yamlkeymap.h"

#include <QtTest>

using namespace ps::core::configedit;
using ps::core::config::Node;

class TestYamlKeyMap : public QObject
{
    Q_OBJECT
private slots:
    void handMade()
    {
        const Node n = ps::core::config::parseOverrideValue(
            "{a: {b: 1, c: [x, y]}, lst: [{name: p, v: 2}, {name: q}], empty: {}, s: t}");
        const std::string yaml = ps::core::config::toYaml(n);
        const YamlKeyMap m = buildYamlKeyMap(n, yaml);
        const auto lines = splitLines(yaml);
        const auto lineOf = [&](const std::string &k) { return lines.at(m.keyLines.at(k)); };
        QCOMPARE(lineOf("a"), std::string("a:"));
        QCOMPARE(lineOf("a.b"), std::string("  b: 1"));
        QCOMPARE(lineOf("a.c.1"), std::string("  - 'y'")); // PyYAML quotes YAML 1.1 booleans
        QCOMPARE(lineOf("lst.0.name"), std::string("- name: p"));
        QCOMPARE(lineOf("lst.0.v"), std::string("  v: 2"));
        QCOMPARE(lineOf("lst.1.name"), std::string("- name: q"));
        QCOMPARE(lineOf("empty"), std::string("empty: {}"));
        QCOMPARE(lineOf("s"), std::string("s: t"));
        QCOMPARE(m.lineKeys.at(m.keyLines.at("lst.0.name")), std::string("lst.0.name"));
    }

    void verlPpoTrainer()
    {
        ps::core::config::ComposeOptions o;
        o.configDirs = {std::string(PS_TESTDATA_DIR) + "/configs/verl/verl/trainer/config"};
        o.configName = "ppo_trainer";
        const auto r = ps::core::config::compose(o);
        const std::string yaml = ps::core::config::toYaml(r.config);
        const YamlKeyMap m = buildYamlKeyMap(r.config, yaml);
        const auto lines = splitLines(yaml);
        QVERIFY2(m.keyLines.size() > 300, std::to_string(m.keyLines.size()).c_str());
        int checked = 0;
        for (const auto &[key, line] : m.keyLines) {
            const std::string last = key.substr(key.rfind('.') + 1);
            const std::string text = lines.at(line);
            const size_t indent = text.find_first_not_of(' ');
            const bool isItem = !last.empty() && std::all_of(last.begin(), last.end(), ::isdigit);
            const std::string body = text.substr(indent);
            QVERIFY2(isItem ? body.rfind("- ", 0) == 0 || body == "-"
                            : body.rfind(last + ":", 0) == 0 || body.rfind("- " + last + ":", 0) == 0 ||
                                  body.rfind("'" + last + "':", 0) == 0 || body.rfind("- '" + last + "':", 0) == 0,
                     (key + " -> " + text).c_str());
            ++checked;
        }
        QVERIFY(checked > 300);
        QCOMPARE(lines.at(m.keyLines.at("global_profiler.steps")), std::string("  steps: null"));
    }
};

QTEST_GUILESS_MAIN(TestYamlKeyMap)
#include "tst_yamlkeymap.moc"
