#include "views/config/defaultstreepane.h"

#include "views/config/configsession.h"

#include <QComboBox>
#include <QHeaderView>

namespace ps::views {

using namespace core::configedit;

namespace {
std::string groupOf(const std::string &configPath)
{
    const size_t slash = configPath.rfind('/');
    return slash == std::string::npos ? std::string() : configPath.substr(0, slash);
}
std::string optionOf(const std::string &configPath)
{
    const size_t slash = configPath.rfind('/');
    return slash == std::string::npos ? configPath : configPath.substr(slash + 1);
}
} // namespace

std::string DefaultsTreePane::groupOverrideKey(const core::config::ConfigSource &s)
{
    const std::string group = groupOf(s.configPath);
    // Entries written with an explicit package are matched by group@package.
    const std::string entry = s.defaultsEntry.substr(0, s.defaultsEntry.find_first_of(":="));
    if (entry.find('@') != std::string::npos && !s.package.empty())
        return group + "@" + s.package;
    return group;
}

DefaultsTreePane::DefaultsTreePane(ConfigSession *session, QWidget *parent) : QTreeWidget(parent), m_session(session)
{
    setObjectName("defaultsTree");
    setHeaderLabels({"Config", "Option", "Package", "File"});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
}

void DefaultsTreePane::showResult(const SessionResultPtr &r)
{
    if (!r || !r->composed)
        return;
    const auto &sources = r->composed->sources;
    std::string sig;
    for (const auto &s : sources)
        sig += s.configPath + '|' + s.file + '|' + s.package + '|' + std::to_string(s.parent) + '\n';
    if (sig == m_shown)
        return;
    m_shown = sig;
    clear();
    std::map<std::string, std::string> presetChoice;
    if (r->baseline)
        for (const auto &[g, o] : r->baseline->choices)
            presetChoice[g] = o;

    std::vector<QTreeWidgetItem *> items(sources.size(), nullptr);
    for (size_t i = 0; i < sources.size(); ++i) {
        const auto &s = sources[i];
        QTreeWidgetItem *parent = s.parent >= 0 && size_t(s.parent) < i ? items[s.parent] : nullptr;
        const QStringList cols = {QString::fromStdString(s.configPath), QString(),
                                  QString::fromStdString(s.package.empty() ? "<root>" : s.package),
                                  QString::fromStdString(s.file)};
        auto *item = parent ? new QTreeWidgetItem(parent, cols) : new QTreeWidgetItem(this, cols);
        item->setToolTip(0, s.defaultsEntry.empty()
                                ? "primary config"
                                : QString::fromStdString(
                                      "defaults entry: " + s.defaultsEntry +
                                      (s.entryMark.isKnown() ? "  (" + s.entryMark.toString() + ")" : std::string())));
        item->setToolTip(3, item->text(3));
        items[i] = item;
        const std::string group = groupOf(s.configPath);
        auto opts = r->groupOptions.find(group);
        // Only group entries ("group@pkg: option", "+group=option") choose an option; a config
        // entry ("actor" inside actor/dp_actor) names one file.
        const bool groupEntry = s.defaultsEntry.find_first_of(":=") != std::string::npos;
        if (!groupEntry || group.empty() || opts == r->groupOptions.end() || opts->second.size() < 2) {
            item->setText(1, QString::fromStdString(optionOf(s.configPath)));
            continue;
        }
        auto *combo = new QComboBox(this);
        combo->setObjectName(QString::fromStdString("choice:" + group));
        for (const auto &o : opts->second)
            combo->addItem(QString::fromStdString(o));
        combo->setCurrentText(QString::fromStdString(optionOf(s.configPath)));
        combo->setToolTip("Options of group '" + QString::fromStdString(group) + "' on the search path");
        setItemWidget(item, 1, combo);
        const std::string key = groupOverrideKey(s);
        const std::string preset = presetChoice.count(group) ? presetChoice[group] : optionOf(s.configPath);
        connect(combo, &QComboBox::currentTextChanged, this, [this, key, preset](const QString &option) {
            m_session->setGroupChoice(key, option.toStdString(), preset);
        });
    }
    expandAll();
}

} // namespace ps::views
