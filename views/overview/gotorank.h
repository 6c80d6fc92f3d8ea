#pragma once
// Go to Rank (Ctrl+G): names a rank the way a user knows it — "ActorGroup:7" (group:rank), "7"
// (a rank number), "pid 4242" or "4242", or a host — and finds its report among the timeline's
// entries. The dialog completes as the user types, from one line per rank; Enter goes to the rank,
// in the completion list too (one Enter, not one to close the list and another to go).

#include "views/scene/timelinescene.h"

#include <QDialog>
#include <QString>
#include <QStringList>

#include <vector>

class QCompleter;
class QLabel;
class QLineEdit;

namespace ps::views {

struct RankTarget
{
    int entry = -1;   // scene entry
    QString text;     // the completion line: "ActorGroup:7 · pid 4242 · host node-3"
    QStringList keys; // what names it exactly (lower case): "actorgroup:7", "7", "pid 4242", "4242", "node-3"
};

// One target per scene entry, in scene order (a rank with several reports: one per report, the
// first found first).
std::vector<RankTarget> rankTargets(const TimelineScene &scene);

// The entry `query` names: an exact key (rank numbers before pids), else the one completion line
// containing it, else -1; `why` says what went wrong ("no rank matches …", "… matches 12 ranks").
int findRank(const std::vector<RankTarget> &targets, const QString &query, QString *why = nullptr);

class GoToRankDialog : public QDialog
{
    Q_OBJECT
public:
    GoToRankDialog(const TimelineScene &scene, QWidget *parent = nullptr);
    QLineEdit *edit() const { return m_edit; }
    // The entry chosen when accepted, else -1.
    int chosenEntry() const { return m_chosen; }

    void accept() override;

protected:
    // Enter in the completion list goes to the rank (the list would otherwise only close).
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QCompleter *m_completer = nullptr;
    std::vector<RankTarget> m_targets;
    QLineEdit *m_edit = nullptr;
    QLabel *m_problem = nullptr;
    int m_chosen = -1;
};

} // namespace ps::views
