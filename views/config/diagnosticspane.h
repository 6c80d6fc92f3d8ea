#pragma once
// The engine's diagnostics for the current composition (and the composition error, when it
// does not compose): severity, message, rule id and location. Above them, the form's own
// problems: text typed into a field that is not a valid value, so the config still holds the
// old one. Lines that repeat per rank are folded into one that lists the ranks
// (core/profiling/diagnosticfold.h). Activating a row asks the workspace to focus the control that edits its
// key, or the YAML line of the key.

#include "core/configedit/sessionresult.h"
#include "views/config/fieldproblem.h"

#include <QTreeWidget>

#include <vector>

namespace ps::core::profiling {
struct DiagnosticLine;
}

namespace ps::views {

using core::profiling::DiagnosticLine;

class DiagnosticsPane : public QTreeWidget
{
    Q_OBJECT
public:
    explicit DiagnosticsPane(QWidget *parent = nullptr);
    void showResult(const core::configedit::SessionResultPtr &result);
    void setFieldProblems(const QList<FieldProblem> &problems);
    // Errors include the field problems.
    int errorCount() const { return m_errors + int(m_fieldProblems.size()); }
    int warningCount() const { return m_warnings; }
    int fieldProblemCount() const { return int(m_fieldProblems.size()); }

signals:
    void keyActivated(const QString &key);

private:
    void rebuild();
    void addFolded(const std::vector<DiagnosticLine> &lines);

    core::configedit::SessionResultPtr m_result;
    QList<FieldProblem> m_fieldProblems;
    int m_errors = 0;
    int m_warnings = 0;
};

} // namespace ps::views
