#include "views/config/diagnosticspane.h"

#include <QHeaderView>

namespace ps::views {

using namespace core::configedit;

namespace {
constexpr int kKeyRole = Qt::UserRole + 1;

QTreeWidgetItem *row(const QString &severity, const QString &message, const QString &rule, const QString &where,
                     const QString &key)
{
    auto *it = new QTreeWidgetItem({severity, message, rule, where});
    it->setData(0, kKeyRole, key);
    it->setToolTip(1, message);
    it->setToolTip(3, where);
    const QColor c = severity == "error"     ? QColor(0xb0, 0x00, 0x20)
                     : severity == "warning" ? QColor(0xa0, 0x60, 0x00)
                                             : QColor(0x40, 0x60, 0x90);
    it->setForeground(0, c);
    return it;
}
} // namespace

DiagnosticsPane::DiagnosticsPane(QWidget *parent) : QTreeWidget(parent)
{
    setObjectName("diagnosticsPane");
    setHeaderLabels({"Severity", "Message", "Rule", "Where"});
    setRootIsDecorated(false);
    setWordWrap(true);
    header()->setSectionResizeMode(1, QHeaderView::Stretch);
    header()->setStretchLastSection(false);
    connect(this, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem *it) { emit keyActivated(it->data(0, kKeyRole).toString()); });
    connect(this, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem *it) { emit keyActivated(it->data(0, kKeyRole).toString()); });
}

void DiagnosticsPane::showResult(const SessionResultPtr &r)
{
    m_result = r;
    rebuild();
}

void DiagnosticsPane::setFieldProblems(const QList<FieldProblem> &problems)
{
    m_fieldProblems = problems;
    rebuild();
}

void DiagnosticsPane::rebuild()
{
    clear();
    m_errors = m_warnings = 0;
    for (const FieldProblem &p : m_fieldProblems)
        addTopLevelItem(row("error", p.message, "form.invalid-value", "form: " + p.key, p.key));
    const SessionResultPtr &r = m_result;
    if (!r)
        return;
    if (!r->composed) {
        addTopLevelItem(row("error", QString::fromStdString(r->error), "config.compose", QString(),
                            QString::fromStdString(r->errorKey)));
        m_errors = 1;
        return;
    }
    for (const auto &d : r->analysis->diagnostics) {
        QString where = QString::fromStdString(d.file);
        if (d.line > 0)
            where += QString(":%1:%2").arg(d.line).arg(d.column);
        if (where.isEmpty())
            where = QString::fromStdString(d.key);
        addTopLevelItem(row(core::profiling::severityName(d.severity), QString::fromStdString(d.message),
                            QString::fromStdString(d.rule), where, QString::fromStdString(d.key)));
        m_errors += d.severity == core::profiling::Severity::Error;
        m_warnings += d.severity == core::profiling::Severity::Warning;
    }
    for (const std::string &p : r->analysis->resolveProblems)
        addTopLevelItem(row("warning", QString::fromStdString(p), "config.resolve", QString(), QString()));
    for (const std::string &w : r->composed->warnings)
        addTopLevelItem(row("info", QString::fromStdString(w), "config.compose", QString(), QString()));
    if (topLevelItemCount() == 0) {
        auto *ok = new QTreeWidgetItem({"ok", "No problems found."});
        addTopLevelItem(ok);
    }
    resizeColumnToContents(0);
}

} // namespace ps::views
