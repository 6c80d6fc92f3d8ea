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
    std::string group = groupOf(s.configPath);
    // Entries written with an explicit package are matched by group@package.
    const std::string entry = s.defaultsEntry.substr(0, s.defaultsEntry.find_first_of(":="));
    if (entry.find('@') != std::string::npos && !s.package.empty())
        return group + "@" + s.package;
    return group;
}

std::string DefaultsTreePane::interpolatedOption(const core::config::ConfigSource &s)
{
    return s.interpolatedOption; // the composer records it (provenance.h)
}

DefaultsTreePane::DefaultsTreePane(ConfigSession *session, QWidget *parent) : QTreeWidget(parent), m_session(session)
{
    setObjectName("defaultsTree");
    setHeaderLabels({"Config", "Option", "Interpolation", "Package", "File"});
    header()->setSectionResizeMode(ConfigColumn, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(OptionColumn, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(InterpolationColumn, QHeaderView::ResizeToContents);
    headerItem()->setToolTip(InterpolationColumn,
                             "A defaults entry whose option is an interpolation (${model_engine}_actor): the text as "
                             "written and the choice it resolved to");
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
        const std::string written = interpolatedOption(s);
        const QStringList cols = {
            QString::fromStdString(s.configPath), QString(),
            written.empty() ? QString() : QString::fromStdString(written + " \u2192 " + optionOf(s.configPath)),
            QString::fromStdString(s.package.empty() ? "<root>" : s.package), QString::fromStdString(s.file)};
        auto *item = parent ? new QTreeWidgetItem(parent, cols) : new QTreeWidgetItem(this, cols);
        item->setToolTip(0, s.defaultsEntry.empty()
                                ? "primary config"
                                : QString::fromStdString(
                                      "defaults entry: " + s.defaultsEntry +
                                      (s.entryMark.isKnown() ? "  (" + s.entryMark.toString() + ")" : std::string())));
        item->setToolTip(FileColumn, item->text(FileColumn));
        if (!written.empty())
            item->setToolTip(InterpolationColumn, QString::fromStdString("written as " + written + "; resolved to " +
                                                                         optionOf(s.configPath)));
        items[i] = item;
        const std::string group = groupOf(s.configPath);
        auto opts = r->groupOptions.find(group);
        // Only group entries ("group@pkg: option", "+group=option") choose an option; a config
        // entry ("actor" inside actor/dp_actor) names one file.
        const bool groupEntry = s.defaultsEntry.find_first_of(":=") != std::string::npos;
        if (!groupEntry || group.empty() || opts == r->groupOptions.end() || opts->second.size() < 2) {
            item->setText(OptionColumn, QString::fromStdString(optionOf(s.configPath)));
            continue;
        }
        auto *combo = new QComboBox(this);
        combo->setObjectName(QString::fromStdString("choice:" + group));
        for (const auto &o : opts->second)
            combo->addItem(QString::fromStdString(o));
        combo->setCurrentText(QString::fromStdString(optionOf(s.configPath)));
        combo->setToolTip("Options of group '" + QString::fromStdString(group) + "' on the search path");
        setItemWidget(item, OptionColumn, combo);
        const std::string key = groupOverrideKey(s);
        const std::string preset = presetChoice.count(group) ? presetChoice[group] : optionOf(s.configPath);
        connect(combo, &QComboBox::currentTextChanged, this, [this, key, preset](const QString &option) {
            m_session->setGroupChoice(key, option.toStdString(), preset);
        });
    }
    expandAll();
}

} // namespace ps::views
