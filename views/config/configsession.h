#pragma once
// The model of the Configure workspace: the base composition inputs (config roots, primary
// config, the chosen preset) plus the ordered list of the user's edits, each a Hydra override.
// Every edit is a QUndoCommand on the session's stack, so the override list pane, undo/redo and
// the exports all read the same list. Every change recomposes and revalidates on a worker
// thread; results arrive as immutable SessionResult objects, and results of superseded edits
// are dropped (LatestJob::runAfterCurrent: at most one job runs; edits made meanwhile coalesce
// into one follow-up job).

#include "core/config/node.h"
#include "core/configedit/overrideedits.h"
#include "core/configedit/sessionresult.h"
#include "core/profiling/launchoptions.h"
#include "views/common/latestjob.h"

#include <QObject>
#include <QString>

#include <map>

class QUndoStack;

namespace ps::views {

struct SessionBase
{
    std::vector<std::string> configDirs;
    std::string configName;
    QString primaryPath;                    // the opened primary config file ("" for a preset-only start)
    std::map<std::string, std::string> env; // variables set for composition (EMBODIED_PATH), over the process env
};

struct SessionState
{
    core::configedit::OverrideList preset; // overrides that apply the chosen preset; part of the baseline
    QString presetId;                      // presets.h id, "" = none
    core::configedit::OverrideList edits;  // the user's edits, in order
    bool operator==(const SessionState &) const = default;
};

class ConfigSession : public QObject
{
    Q_OBJECT
public:
    explicit ConfigSession(QObject *parent = nullptr);
    ~ConfigSession() override;

    // Starts a new session on `base` (clears edits and the undo history).
    void open(const SessionBase &base, const SessionState &state = {});
    bool isOpen() const { return !m_base.configName.empty(); }
    const SessionBase &base() const { return m_base; }
    const SessionState &state() const { return m_state; }
    // The preset's overrides followed by the user's edits: what is composed and exported.
    core::configedit::OverrideList allOverrides() const;

    // Edits (undoable). Keys are dotted paths of the composed config.
    void setValue(const std::string &key, const core::config::Node &value);
    void removeKey(const std::string &key);
    void setGroupChoice(const std::string &groupKey, const std::string &option, const std::string &presetOption);
    void setEdits(const core::configedit::OverrideList &edits, const QString &label);
    void setPreset(const QString &presetId, const core::configedit::OverrideList &presetOverrides);

    // Launch facts the config cannot know; not config edits, so not on the undo stack.
    void setLaunchOptions(const core::profiling::LaunchOptions &launch);
    const core::profiling::LaunchOptions &launchOptions() const { return m_launch; }
    void setCluster(const core::profiling::ClusterDescription &cluster);
    const core::profiling::ClusterDescription &cluster() const { return m_cluster; }
    // The verl release whose rules apply (like the CLI's --verl-version); nullopt = detected.
    void setVerlVersion(std::optional<core::profiling::VerlVersion> version);
    std::optional<core::profiling::VerlVersion> verlVersion() const { return m_verlVersion; }

    QUndoStack *undoStack() const { return m_undo; }
    core::configedit::SessionResultPtr result() const { return m_result; }
    bool isBusy() const { return m_job->isBusy(); }

    // Applied by the undo commands; not for direct use.
    void applyState(const SessionState &state);

signals:
    void resultReady(ps::core::configedit::SessionResultPtr result);
    void stateChanged();
    void busyChanged(bool busy);

private:
    void push(const SessionState &after, const QString &label, const std::string &mergeKey);
    core::configedit::EditContext context() const;
    void schedule();
    void showResult(core::configedit::SessionResultPtr r);
    core::config::ComposeOptions baseOptions() const;

    SessionBase m_base;
    SessionState m_state;
    core::profiling::LaunchOptions m_launch;
    core::profiling::ClusterDescription m_cluster;
    std::optional<core::profiling::VerlVersion> m_verlVersion;
    QUndoStack *m_undo;
    core::configedit::SessionResultPtr m_result;
    LatestJob<core::configedit::SessionResultPtr> *m_job;
    // The newest result that carried a composed baseline (key, tree and YAML), reused by the
    // next jobs while the base stays the same.
    core::configedit::SessionResultPtr m_baselineFrom;
};

} // namespace ps::views
