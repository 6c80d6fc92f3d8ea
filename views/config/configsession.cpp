#include "views/config/configsession.h"

#include "core/configedit/sessionjob.h"

#include <QUndoCommand>
#include <QUndoStack>

namespace ps::views {

using namespace core::configedit;

namespace {

// One edit: the session state before and after. Consecutive edits of the same key (typing in a
// field) merge into one undo step.
class StateCommand : public QUndoCommand
{
public:
    StateCommand(ConfigSession *session, SessionState before, SessionState after, const QString &label,
                 std::string mergeKey)
        : QUndoCommand(label), m_session(session), m_before(std::move(before)), m_after(std::move(after)),
          m_mergeKey(std::move(mergeKey))
    {
    }
    void redo() override { m_session->applyState(m_after); }
    void undo() override { m_session->applyState(m_before); }
    int id() const override { return m_mergeKey.empty() ? -1 : 1; }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *o = static_cast<const StateCommand *>(other);
        if (o->m_mergeKey != m_mergeKey)
            return false;
        m_after = o->m_after;
        return true;
    }

private:
    ConfigSession *m_session;
    SessionState m_before, m_after;
    std::string m_mergeKey;
};

} // namespace

ConfigSession::ConfigSession(QObject *parent)
    : QObject(parent), m_undo(new QUndoStack(this)),
      m_job(new LatestJob<SessionResultPtr>(this, [this](SessionResultPtr r) { showResult(std::move(r)); }))
{
    // A superseded result still carries a composed baseline the next jobs can reuse.
    m_job->setSeen([this](const SessionResultPtr &r) {
        if (r->baseline)
            m_baselineFrom = r;
    });
    connect(m_job, &LatestJobBase::busyChanged, this, &ConfigSession::busyChanged);
}

ConfigSession::~ConfigSession() = default;

void ConfigSession::open(const SessionBase &base, const SessionState &state)
{
    m_base = base;
    m_state = state;
    m_result.reset();
    m_baselineFrom.reset();
    m_undo->clear();
    emit stateChanged();
    schedule();
}

OverrideList ConfigSession::allOverrides() const
{
    OverrideList all = m_state.preset;
    all.insert(all.end(), m_state.edits.begin(), m_state.edits.end());
    return all;
}

EditContext ConfigSession::context() const
{
    EditContext ctx;
    if (m_result && m_result->composed)
        ctx.current = &m_result->composed->config;
    if (m_result && m_result->baseline)
        ctx.baseline = &m_result->baseline->config;
    return ctx;
}

void ConfigSession::setValue(const std::string &key, const core::config::Node &value)
{
    SessionState after = m_state;
    after.edits = withValue(m_state.edits, key, value, context());
    push(after, QString("Set %1").arg(QString::fromStdString(key)), key);
}

void ConfigSession::removeKey(const std::string &key)
{
    SessionState after = m_state;
    after.edits = withoutKey(m_state.edits, key, context());
    push(after, QString("Remove %1").arg(QString::fromStdString(key)), std::string());
}

void ConfigSession::setGroupChoice(const std::string &groupKey, const std::string &option,
                                   const std::string &presetOption)
{
    SessionState after = m_state;
    after.edits = withGroupChoice(m_state.edits, groupKey, option, presetOption);
    push(after, QString("Choose %1=%2").arg(QString::fromStdString(groupKey), QString::fromStdString(option)),
         std::string());
}

void ConfigSession::setEdits(const OverrideList &edits, const QString &label)
{
    SessionState after = m_state;
    after.edits = edits;
    push(after, label, std::string());
}

void ConfigSession::setPreset(const QString &presetId, const OverrideList &presetOverrides)
{
    SessionState after = m_state;
    after.presetId = presetId;
    after.preset = presetOverrides;
    push(after, presetId.isEmpty() ? QString("No preset") : QString("Preset %1").arg(presetId), std::string());
}

void ConfigSession::push(const SessionState &after, const QString &label, const std::string &mergeKey)
{
    if (after == m_state)
        return; // e.g. a value set to what it already is
    m_undo->push(new StateCommand(this, m_state, after, label, mergeKey));
}

void ConfigSession::applyState(const SessionState &state)
{
    m_state = state;
    emit stateChanged();
    schedule();
}

void ConfigSession::setLaunchOptions(const core::profiling::LaunchOptions &launch)
{
    m_launch = launch;
    schedule();
}

void ConfigSession::setCluster(const core::profiling::ClusterDescription &cluster)
{
    m_cluster = cluster;
    schedule();
}

void ConfigSession::setVerlVersion(std::optional<core::profiling::VerlVersion> version)
{
    if (version == m_verlVersion)
        return;
    m_verlVersion = version;
    schedule();
}

core::config::ComposeOptions ConfigSession::baseOptions() const
{
    core::config::ComposeOptions o;
    o.configDirs = m_base.configDirs;
    o.configName = m_base.configName;
    o.overrides = m_state.preset;
    const auto vars = m_base.env;
    const auto process = core::config::processEnvironment();
    o.env = [vars, process](const std::string &name) -> std::optional<std::string> {
        if (auto it = vars.find(name); it != vars.end())
            return it->second;
        return process(name);
    };
    return o;
}

void ConfigSession::schedule()
{
    if (!isOpen())
        return;
    // Built when the job starts, so that it carries the newest state and baseline.
    m_job->runAfterCurrent([this]() -> LatestJob<SessionResultPtr>::Work {
        SessionJob job;
        job.base = baseOptions();
        job.overrides = allOverrides();
        job.launch = m_launch;
        job.cluster = m_cluster;
        job.verlVersion = m_verlVersion;
        job.baselineKey = baselineKey(job.base);
        if (m_baselineFrom && m_baselineFrom->baselineKey == job.baselineKey) {
            job.cachedBaseline = m_baselineFrom->baseline;
            job.cachedBaselineYaml = m_baselineFrom->baselineYaml;
        }
        return [job](const CancelToken &) { return runSessionJob(job); };
    });
}

void ConfigSession::showResult(SessionResultPtr r)
{
    m_result = std::move(r);
    emit resultReady(m_result);
}

} // namespace ps::views
