#include "views/config/yamlpane.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>

namespace ps::views {

using namespace core::configedit;

YamlPane::YamlPane(QWidget *parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setObjectName("yamlPane");
}

void YamlPane::showResult(const SessionResultPtr &result)
{
    m_result = result;
    if (!result)
        return;
    const QString text = result->composed
                             ? QString::fromStdString(result->yaml)
                             : QString::fromStdString("# The config does not compose:\n# " + result->error);
    if (text == toPlainText())
        return;
    // Keep the reader's place across recompositions.
    const int scroll = verticalScrollBar()->value();
    setPlainText(text);
    verticalScrollBar()->setValue(scroll);
}

bool YamlPane::revealKey(const std::string &key, bool takeFocus)
{
    if (!m_result)
        return false;
    std::string k = key;
    while (!k.empty()) {
        auto it = m_result->yamlKeys.keyLines.find(k);
        if (it != m_result->yamlKeys.keyLines.end()) {
            QTextCursor c(document()->findBlockByNumber(it->second));
            c.select(QTextCursor::LineUnderCursor);
            setTextCursor(c);
            centerCursor();
            if (takeFocus)
                setFocus();
            return true;
        }
        const size_t dot = k.rfind('.');
        k = dot == std::string::npos ? std::string() : k.substr(0, dot);
    }
    return false;
}

QString YamlPane::provenanceAt(int line) const
{
    if (!m_result || !m_result->composed || line < 0 || line >= int(m_result->yamlKeys.lineKeys.size()))
        return QString();
    const std::string &key = m_result->yamlKeys.lineKeys[line];
    if (key.empty())
        return QString();
    return QString::fromStdString(key + "\n" + core::config::explainKey(*m_result->composed, key));
}

bool YamlPane::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(e);
        const QTextCursor c = cursorForPosition(viewport()->mapFromGlobal(help->globalPos()));
        const QString tip = provenanceAt(c.blockNumber());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QPlainTextEdit::event(e);
}

} // namespace ps::views
