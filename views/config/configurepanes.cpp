#include "views/config/configurepanes.h"

#include "views/config/defaultstreepane.h"
#include "views/config/diagnosticspane.h"
#include "views/config/diffpane.h"
#include "views/config/launchplanpane.h"
#include "views/config/overridespane.h"
#include "views/config/yamlpane.h"

namespace ps::views {

using core::configedit::SessionResultPtr;

ConfigurePanes::ConfigurePanes(ConfigSession *session, QWidget *parent)
    : QTabWidget(parent), m_yaml(new YamlPane), m_diff(new DiffPane), m_diagnostics(new DiagnosticsPane),
      m_launch(new LaunchPlanPane), m_overrides(new OverridesPane(session)), m_defaults(new DefaultsTreePane(session))
{
    setObjectName("paneTabs");
    addTab(m_yaml, "Composed YAML");
    addTab(m_diff, "Diff vs preset");
    addTab(m_diagnostics, "Diagnostics");
    addTab(m_launch, "Launch plan");
    addTab(m_overrides, "Overrides");
    addTab(m_defaults, "Defaults tree");
    connect(m_diagnostics, &DiagnosticsPane::keyActivated, this, &ConfigurePanes::keyActivated);
}

void ConfigurePanes::showResult(const SessionResultPtr &result, const std::string &revealKey)
{
    m_yaml->showResult(result);
    if (!revealKey.empty())
        m_yaml->revealKey(revealKey, false);
    m_diff->showResult(result);
    m_diagnostics->showResult(result);
    m_launch->showResult(result);
    m_defaults->showResult(result);
    updateDiagnosticsTitle();
}

void ConfigurePanes::setFieldProblems(const QList<FieldProblem> &problems)
{
    m_diagnostics->setFieldProblems(problems);
    updateDiagnosticsTitle();
}

bool ConfigurePanes::revealKey(const std::string &key)
{
    if (!m_yaml->revealKey(key))
        return false;
    setCurrentWidget(m_yaml);
    return true;
}

void ConfigurePanes::showDiagnostics()
{
    setCurrentWidget(m_diagnostics);
}

// "Diagnostics (3)": what stands is visible from any tab.
void ConfigurePanes::updateDiagnosticsTitle()
{
    const int problems = m_diagnostics->errorCount() + m_diagnostics->warningCount();
    setTabText(indexOf(m_diagnostics), problems ? QString("Diagnostics (%1)").arg(problems) : QString("Diagnostics"));
}

} // namespace ps::views
