#pragma once
// Base of the Configure workspace's editing panels. A panel is thin: it shows values of the
// newest SessionResult (refresh, with the controls' signals blocked so showing is never editing)
// and turns user input into session edits (setValue / removeKey), which recompose in the
// background. Panels register which control edits which key, so that clicking a diagnostic can
// focus the control of its key.

#include "core/config/node.h"
#include "core/configedit/sessionresult.h"
#include "core/profiling/verlversion.h"

#include <QString>
#include <QWidget>

#include <string>
#include <utility>
#include <vector>

namespace ps::views {

class ConfigSession;

class ConfigPanel : public QWidget
{
    Q_OBJECT
public:
    ConfigPanel(ConfigSession *session, QWidget *parent = nullptr);

    virtual void refresh(const core::configedit::SessionResult &result) = 0;
    // key path -> the control that edits it (most specific keys first is not required).
    const std::vector<std::pair<std::string, QWidget *>> &controls() const { return m_controls; }

signals:
    // A bound field's text became valid or invalid (IntListField::problem).
    void fieldProblemsChanged();

protected:
    void bind(const std::string &key, QWidget *control);
    ConfigSession *session() const { return m_session; }

private:
    ConfigSession *m_session;
    std::vector<std::pair<std::string, QWidget *>> m_controls;
};

// The composed (raw, unresolved) node at `key`, or nullptr.
const core::config::Node *composedNode(const core::configedit::SessionResult &r, const std::string &key);
// The traits of the verl release whose rules apply to `r` (detected, or chosen in the header),
// or nullptr when `r` is not a composed verl config. Panels show only what that release has.
const core::profiling::VerlVersionTraits *verlTraits(const core::configedit::SessionResult &r);
// A scalar as the user reads and types it: "true", "1000", "cuda,nvtx", the interpolation text;
// "" for null/absent.
QString scalarText(const core::config::Node *n);
// Typed value for text typed into a field: Hydra's override grammar for numbers, booleans and
// null ("1000" -> Int), otherwise the text as a string (so "cuda,nvtx" stays one string).
core::config::Node valueFromText(const QString &text);
// Runs `fn` with the widget's signals blocked (showing a value must not emit an edit).
template <typename W, typename F> void quietly(W *w, F fn)
{
    const bool was = w->blockSignals(true);
    fn(w);
    w->blockSignals(was);
}

} // namespace ps::views
