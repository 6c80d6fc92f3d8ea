#pragma once
// The composed YAML, as Hydra prints it. Hovering a line shows where its value came from: every
// file:line that set it in merge order (the last one won, the earlier ones were overridden) or
// the override that set it (core::config::explainKey).

#include "core/configedit/sessionresult.h"

#include <QPlainTextEdit>

namespace ps::views {

class YamlPane : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit YamlPane(QWidget *parent = nullptr);
    void showResult(const core::configedit::SessionResultPtr &result);
    // Selects the line of `key` (or its nearest ancestor); false when the key is not shown.
    bool revealKey(const std::string &key, bool takeFocus = true);
    // The provenance text shown for a 0-based line; empty for lines without a key.
    QString provenanceAt(int line) const;

protected:
    bool event(QEvent *e) override;

private:
    core::configedit::SessionResultPtr m_result;
};

} // namespace ps::views
