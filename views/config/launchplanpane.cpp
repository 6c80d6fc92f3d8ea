#include "views/config/launchplanpane.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHeaderView>

namespace ps::views {

using namespace core::configedit;

LaunchPlanPane::LaunchPlanPane(QWidget *parent) : QTreeWidget(parent)
{
    setObjectName("launchPlanPane");
    setHeaderLabels({"Worker / item", "Value"});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setToolTip("Double-click a row to copy its value");
    connect(this, &QTreeWidget::itemDoubleClicked, this,
            [](QTreeWidgetItem *it) { QApplication::clipboard()->setText(it->text(1)); });
}

QString LaunchPlanPane::commandOf(const QString &worker) const
{
    for (int i = 0; i < topLevelItemCount(); ++i) {
        QTreeWidgetItem *w = topLevelItem(i);
        if (w->data(0, Qt::UserRole).toString() != worker)
            continue;
        for (int k = 0; k < w->childCount(); ++k)
            if (w->child(k)->text(0) == "command")
                return w->child(k)->text(1);
    }
    return QString();
}

void LaunchPlanPane::showResult(const SessionResultPtr &r)
{
    if (!r || !r->analysis) {
        clear();
        m_shown.clear();
        return;
    }
    const auto &plan = r->analysis->launch;
    std::string sig = plan.driverCommand + '\n';
    for (const auto &w : plan.workers) {
        sig += w.name + '\x1f' + w.command + '\x1f' + w.reason + '\x1f' + std::to_string(w.node);
        for (const auto &[k, v] : w.env)
            sig += '\x1f' + k + '=' + v;
        for (const auto &c : w.captureRanges)
            sig += '\x1f' + c.label;
        for (const auto &o : w.outputs)
            sig += '\x1f' + o;
        sig += '\n';
    }
    for (const auto &[node, dir] : plan.collect)
        sig += std::to_string(node) + dir + '\n';
    for (const auto &n : plan.notes)
        sig += n + '\n';
    if (sig == m_shown)
        return;
    m_shown = sig;
    clear();
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const auto child = [&](QTreeWidgetItem *parent, const QString &name, const std::string &value) {
        auto *c = new QTreeWidgetItem(parent, {name, QString::fromStdString(value)});
        c->setFont(1, mono);
        c->setToolTip(1, QString::fromStdString(value));
        return c;
    };
    if (!plan.driverCommand.empty()) {
        auto *d = new QTreeWidgetItem(this, {"Driver", QString::fromStdString(plan.driverCommand)});
        d->setFont(1, mono);
        d->setToolTip(1, d->text(1));
    }
    for (const auto &w : plan.workers) {
        auto *item = new QTreeWidgetItem(
            this, {QString::fromStdString(w.name), w.wrapped ? QString("wrapped (node %1)").arg(w.node)
                                                             : "not wrapped: " + QString::fromStdString(w.reason)});
        item->setData(0, Qt::UserRole, QString::fromStdString(w.name));
        if (!w.wrapped)
            item->setForeground(0, QColor(0x80, 0x80, 0x80));
        if (!w.command.empty())
            child(item, "command", w.command);
        for (const auto &[k, v] : w.env)
            child(item, "env", k + "=" + v);
        for (const auto &cr : w.captureRanges)
            child(item, "capture range", cr.label);
        for (const auto &o : w.outputs)
            child(item, "output", o);
        if (w.wrapped && !w.reason.empty())
            child(item, "note", w.reason);
        if (!w.roles.empty()) {
            std::string roles;
            for (const auto &role : w.roles)
                roles += (roles.empty() ? "" : ", ") + role;
            child(item, "roles", roles);
        }
        item->setExpanded(w.wrapped);
    }
    if (!plan.collect.empty()) {
        auto *c = new QTreeWidgetItem(this, {"Collect reports from", QString()});
        for (const auto &[node, dir] : plan.collect)
            child(c, QString("node %1").arg(node), dir);
        c->setExpanded(true);
    }
    for (const auto &n : plan.notes)
        new QTreeWidgetItem(this, {"note", QString::fromStdString(n)});
}

} // namespace ps::views
