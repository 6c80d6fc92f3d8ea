#include "views/overview/gotorank.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStringListModel>
#include <QVBoxLayout>

namespace ps::views {

std::vector<RankTarget> rankTargets(const TimelineScene &scene)
{
    std::vector<RankTarget> out;
    for (size_t i = 0; i < scene.entries.size(); ++i) {
        const core::trace::ReportIdentity &id = scene.entries[i].report->report().identity;
        RankTarget t;
        t.entry = int(i);
        QStringList parts;
        if (id.rank) {
            const QString rank = QString::number(*id.rank);
            const QString named = id.group.empty() ? QStringLiteral("rank ") + rank
                                                   : QString::fromStdString(id.group) + QLatin1Char(':') + rank;
            parts << named;
            t.keys << named.toLower() << rank << QStringLiteral("rank ") + rank;
        } else {
            parts << scene.entries[i].label;
            t.keys << scene.entries[i].label.toLower();
        }
        if (id.pid) {
            const QString pid = QString::number(*id.pid);
            parts << QStringLiteral("pid ") + pid;
            t.keys << QStringLiteral("pid ") + pid << pid;
        }
        if (!id.host.empty()) {
            parts << QStringLiteral("host ") + QString::fromStdString(id.host);
            t.keys << QString::fromStdString(id.host).toLower();
        }
        if (!id.run.empty())
            parts << QStringLiteral("run ") + QString::fromStdString(id.run);
        t.text = parts.join(QStringLiteral(" · "));
        out.push_back(std::move(t));
    }
    return out;
}

int findRank(const std::vector<RankTarget> &targets, const QString &query, QString *why)
{
    const QString q = query.trimmed().toLower();
    if (q.isEmpty()) {
        if (why)
            *why = QStringLiteral("Name a rank: group:rank, a rank number, pid N or a host.");
        return -1;
    }
    // Exact keys, by how specific they are: group:rank, then rank number, then pid, then host.
    for (int keyIndex = 0; keyIndex < 6; ++keyIndex)
        for (const RankTarget &t : targets)
            if (keyIndex < t.keys.size() && t.keys[keyIndex] == q)
                return t.entry;
    for (const RankTarget &t : targets)
        if (t.keys.contains(q))
            return t.entry;
    std::vector<int> containing;
    for (const RankTarget &t : targets)
        if (t.text.toLower().contains(q))
            containing.push_back(t.entry);
    if (containing.size() == 1 || (!containing.empty() && q == targets[size_t(containing.front())].text.toLower()))
        return containing.front();
    if (why)
        *why = containing.empty() ? QStringLiteral("No rank matches \"%1\".").arg(query.trimmed())
                                  : QStringLiteral("\"%1\" matches %2 ranks: pick one from the list.")
                                        .arg(query.trimmed())
                                        .arg(containing.size());
    return -1;
}

GoToRankDialog::GoToRankDialog(const TimelineScene &scene, QWidget *parent)
    : QDialog(parent), m_targets(rankTargets(scene))
{
    setWindowTitle(QStringLiteral("Go to Rank"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(QStringLiteral("Rank (group:rank, rank number, pid N or host):"), this));
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("goToRankEdit"));
    QStringList lines;
    for (const RankTarget &t : m_targets)
        lines << t.text;
    m_completer = new QCompleter(lines, m_edit);
    m_completer->setCaseSensitivity(Qt::CaseInsensitive);
    m_completer->setFilterMode(Qt::MatchContains);
    m_completer->setMaxVisibleItems(12);
    m_edit->setCompleter(m_completer);
    // Before the completer's own filter: it would take Enter to close the list and stop there.
    m_completer->popup()->installEventFilter(this);
    connect(m_completer, qOverload<const QString &>(&QCompleter::activated), this, [this](const QString &line) {
        m_edit->setText(line); // a line clicked in the list
        accept();
    });
    layout->addWidget(m_edit);
    m_problem = new QLabel(this);
    m_problem->setStyleSheet(QStringLiteral("color: #c62828"));
    m_problem->hide();
    layout->addWidget(m_problem);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &GoToRankDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &GoToRankDialog::reject);
    layout->addWidget(buttons);
}

bool GoToRankDialog::eventFilter(QObject *watched, QEvent *event)
{
    QAbstractItemView *list = m_completer->popup();
    if (watched != list || event->type() != QEvent::KeyPress)
        return QDialog::eventFilter(watched, event);
    const int key = static_cast<QKeyEvent *>(event)->key();
    if (key != Qt::Key_Return && key != Qt::Key_Enter)
        return QDialog::eventFilter(watched, event);
    if (list->currentIndex().isValid()) // a line chosen with the arrows; else what was typed
        m_edit->setText(list->currentIndex().data().toString());
    list->hide();
    accept();
    return true;
}

void GoToRankDialog::accept()
{
    QString why;
    m_chosen = findRank(m_targets, m_edit->text(), &why);
    if (m_chosen < 0) {
        m_problem->setText(why);
        m_problem->show();
        return;
    }
    QDialog::accept();
}

} // namespace ps::views
