#pragma once
// The model of the Configure workspace: the base composition inputs (config roots, primary
// config, the chosen preset) plus the ordered list of the user's edits, each a Hydra override.
// Every edit is a QUndoCommand on the session's stack, so the override list pane, undo/redo and
// the exports all read the same list. Every change recomposes and revalidates on a worker
// thread; results arrive as immutable SessionResult objects, and results of superseded edits
// are dropped by a generation counter (at most one job runs; edits made meanwhile coalesce into
// one follow-up job).

#include "core/config/node.h"
#include "core/profiling/launchoptions.h"
#include "views/config/overrideedits.h"
#include "views/config/sessionresult.h"

#include <QFutureWatcher>
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
    OverrideList preset; // overrides that apply the chosen preset; part of the baseline
    QString presetId;    // presets.h id, "" = none
    OverrideList edits;  // the user's edits, in order
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
    OverrideList allOverrides() const;

    // Edits (undoable). Keys are dotted paths of the composed config.
    void setValue(const std::string &key, const core::config::Node &value);
    void removeKey(const std::string &key);
    void setGroupChoice(const std::string &groupKey, const std::string &option, const std::string &presetOption);
    void setEdits(const OverrideList &edits, const QString &label);
    void setPreset(const QString &presetId, const OverrideList &presetOverrides);

    // Launch facts the config cannot know; not config edits, so not on the undo stack.
    void setLaunchOptions(const core::profiling::LaunchOptions &launch);
    const core::profiling::LaunchOptions &launchOptions() const { return m_launch; }
    void setCluster(const core::profiling::ClusterDescription &cluster);
    const core::profiling::ClusterDescription &cluster() const { return m_cluster; }

    QUndoStack *undoStack() const { return m_undo; }
    SessionResultPtr result() const { return m_result; }
    bool isBusy() const { return m_running || m_pending; }
    uint64_t generation() const { return m_generation; }

    // Applied by the undo commands; not for direct use.
    void applyState(const SessionState &state);

signals:
    void resultReady(ps::views::SessionResultPtr result);
    void stateChanged();
    void busyChanged(bool busy);

private:
    void push(const SessionState &after, const QString &label, const std::string &mergeKey);
    EditContext context() const;
    void schedule();
    void startJob();
    void jobFinished();
    core::config::ComposeOptions baseOptions() const;

    SessionBase m_base;
    SessionState m_state;
    core::profiling::LaunchOptions m_launch;
    core::profiling::ClusterDescription m_cluster;
    QUndoStack *m_undo;
    SessionResultPtr m_result;
    QFutureWatcher<SessionResultPtr> m_watcher;
    uint64_t m_generation = 0;
    bool m_running = false;
    bool m_pending = false;
    // The newest result that carried a composed baseline (key, tree and YAML), reused by the
    // next jobs while the base stays the same.
    SessionResultPtr m_baselineFrom;
};

} // namespace ps::views
