#pragma once
// Loads reports in the background: finds the report files under the given paths, reads them in
// core::trace::loadReports (progress + CancelToken), prepares each report for drawing on the
// worker that loaded it, and hands it to the GUI thread at once, so reports appear as they finish.
// A load is a LatestJob (latestjob.h) whose result is what became of every file; a cancelled
// load still says so.

#include "views/scene/preparedreport.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <vector>

namespace ps::views {

template <typename T> class LatestJob;

// What became of the files of a load, handed over when it ends.
struct LoadOutcome
{
    QStringList failures;                 // the core's messages
    QStringList cancelled;                // paths a cancel left unloaded
    std::vector<PreparedReportPtr> ready; // addReports(): all at the end
    bool wasCancelled = false;
};

class TimelineLoader : public QObject
{
    Q_OBJECT
public:
    explicit TimelineLoader(QObject *parent = nullptr);
    ~TimelineLoader() override; // cancels and waits for the load

    // Starts loading `paths` (files or folders). Ignored while a load runs (returns false).
    bool load(const QStringList &paths);
    // Prepares already-loaded reports the same way (tests, the demo, the render command).
    bool addReports(std::vector<core::trace::ReportPtr> reports);
    void cancel();
    bool isRunning() const { return m_running; }

    // Use the engine's report cache (off in tests so they never write outside their temp dir).
    void setUseCache(bool on) { m_useCache = on; }

signals:
    void started(int reportsTotal);
    void progress(double fraction, const QString &text);
    void reportsReady(const std::vector<ps::views::PreparedReportPtr> &reports);
    void failed(const QStringList &reasons);
    // Files a cancel left unloaded (paths): with the loaded and the failed ones, every file found.
    void filesCancelled(const QStringList &paths);
    // The paths held no report files: one line per path saying what they hold instead.
    void nothingFound(const QStringList &lines);
    void finished(bool cancelled);

private:
    void finish(const LoadOutcome &out);

    bool m_running = false; // until finished() is emitted
    bool m_useCache = true;
    LatestJob<LoadOutcome> *m_job = nullptr;
};

} // namespace ps::views

Q_DECLARE_METATYPE(std::vector<ps::views::PreparedReportPtr>)
