#include "views/config/diagnosticspane.h"

#include "core/profiling/diagnosticfold.h"

#include <QHeaderView>

namespace ps::views {

using namespace core::configedit;
using core::profiling::FoldedDiagnostic;
using core::profiling::foldRepeatedDiagnostics;

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
    std::vector<DiagnosticLine> lines;
    for (const auto &d : r->analysis->diagnostics) {
        std::string where = d.file;
        if (d.line > 0)
            where += ":" + std::to_string(d.line) + ":" + std::to_string(d.column);
        if (where.empty())
            where = d.key;
        lines.push_back({core::profiling::severityName(d.severity), d.rule, d.message, where, d.key});
        m_errors += d.severity == core::profiling::Severity::Error;
        m_warnings += d.severity == core::profiling::Severity::Warning;
    }
    for (const std::string &p : r->analysis->resolveProblems)
        lines.push_back({"warning", "config.resolve", p, {}, {}});
    for (const std::string &w : r->composed->warnings)
        lines.push_back({"info", "config.compose", w, {}, {}});
    addFolded(lines);
    if (topLevelItemCount() == 0) {
        auto *ok = new QTreeWidgetItem({"ok", "No problems found."});
        addTopLevelItem(ok);
    }
    resizeColumnToContents(0);
}

// Lines that repeat per rank are one row (diagnosticfold.h); its tooltip lists the lines folded.
void DiagnosticsPane::addFolded(const std::vector<DiagnosticLine> &lines)
{
    auto qs = [](const std::string &s) { return QString::fromStdString(s); };
    for (const FoldedDiagnostic &f : foldRepeatedDiagnostics(lines)) {
        QTreeWidgetItem *it =
            row(qs(f.line.severity), qs(f.line.message), qs(f.line.rule), qs(f.line.where), qs(f.line.key));
        if (f.members.size() > 1) {
            QStringList folded;
            for (size_t i = 0; i < f.members.size() && i < 20; ++i)
                folded << qs(lines[f.members[i]].message);
            if (f.members.size() > 20)
                folded << QStringLiteral("… and %1 more").arg(f.members.size() - 20);
            it->setToolTip(1, folded.join(QLatin1Char('\n')));
        }
        addTopLevelItem(it);
    }
}

} // namespace ps::views
