#pragma once
// The Configure workspace's left-hand side: the panels that edit the session. Tabs: Profiling
// (one page per framework: RLinf's cluster.profiling, verl's global_profiler, or a note for a
// config with neither), Backend (the chosen profiler's options: Nsight Systems, rocprof-sys,
// verl's nsys worker/controller options or its tool panels), Launch and the Schedule helper.
// The framework pages are built from tables of sections (configurepanels.cpp); each panel and
// each section that shows or hides is named (objectName), and reached by that name:
//
//   panels->panel<StepsEditor>("rlinfSteps"), panels->panel<NsightPanel>("verlWorkerNsight")
//
// showResult() follows the session's result: which page and backend apply, the release's
// sections (verl's rollout profiler, the finish hook), and every panel's values.

#include "core/configedit/sessionresult.h"
#include "views/config/fieldproblem.h"

#include <QList>
#include <QTabWidget>

#include <string>

class QStackedWidget;

namespace ps::views {

class ConfigPanel;
class ConfigSession;

class ConfigurePanels : public QTabWidget
{
    Q_OBJECT
public:
    ConfigurePanels(ConfigSession *session, QWidget *parent);

    void showResult(const core::configedit::SessionResult &result);
    // The panel or section of that objectName; null when there is none.
    template <class T> T *panel(const char *name) const { return findChild<T *>(QString::fromLatin1(name)); }
    QList<ConfigPanel *> configPanels() const;
    // Form fields whose text is not a valid value, each at its key with what the config keeps.
    QList<FieldProblem> fieldProblems(const core::configedit::SessionResult *result) const;
    // Focuses the most specific control on the live pages whose key is `key` or an ancestor of
    // it, switching tabs and scrolling to it; false when none edits it.
    bool focusKey(const std::string &key);

signals:
    void fieldProblemsChanged();

private:
    QWidget *buildProfilingTab(ConfigSession *session);
    QWidget *buildBackendTab(ConfigSession *session);
    bool isLive(QWidget *control) const;

    QStackedWidget *m_profiling = nullptr; // pages: neither framework, RLinf, verl
    QStackedWidget *m_backend = nullptr;   // pages: none, RLinf nsys, rocprof-sys, verl nsys, verl tools
};

} // namespace ps::views
