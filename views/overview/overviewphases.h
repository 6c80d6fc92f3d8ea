#pragma once
// What the cluster overview takes from the RL phase table (core/analysis/phases/phases.h): each rank's
// phases as spans on the shared axis (for colouring by RL phase), and the straggler: the rank the
// table names straggler of the most phase rows (its collectives made the others wait).

#include "core/analysis/phases/phases.h"
#include "views/scene/timelinescene.h"

#include <QString>

#include <vector>

namespace ps::views {

struct OverviewPhase
{
    int entry = -1;    // scene entry
    int64_t start = 0; // shared axis
    int64_t end = 0;
    QString phase;
};

struct OverviewPhases
{
    std::vector<OverviewPhase> spans; // by entry, then start
    QStringList names;                // the phases, in the order the table lists them
    int stragglerEntry = -1;          // -1: the table names none
    int stragglerRows = 0;            // rows it is the straggler of
    // Reports are still loading: the table is of those read so far, so its straggler may change
    // (shown grey and called provisional, never red as if final).
    bool provisional = false;
};

// `entries` maps the table's input reports (PhaseColumn::report) to scene entries.
OverviewPhases overviewPhases(const core::analysis::PhaseTable &table, const std::vector<int> &entries,
                              const TimelineScene &scene);

} // namespace ps::views
