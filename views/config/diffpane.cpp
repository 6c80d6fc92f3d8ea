#include "views/config/diffpane.h"

#include <QFontDatabase>
#include <QTextBlock>

namespace ps::views {

using namespace core::configedit;

DiffPane::DiffPane(QWidget *parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setObjectName("diffPane");
}

void DiffPane::showResult(const SessionResultPtr &r)
{
    if (!r || !r->composed)
        return;
    const std::string text = unifiedDiff(r->diff);
    if (text == m_shown && !document()->isEmpty())
        return;
    m_shown = text;
    clear();
    if (text.empty()) {
        appendPlainText("No difference from the preset.");
        return;
    }
    // Colour by line kind; plain text keeps copy-paste a valid diff.
    QTextCharFormat added, removed, header, plain;
    added.setForeground(QColor(0x1a, 0x7f, 0x37));
    removed.setForeground(QColor(0xb0, 0x00, 0x20));
    header.setForeground(QColor(0x55, 0x55, 0xaa));
    QTextCursor c(document());
    bool first = true;
    for (const std::string &line : splitLines(text)) {
        if (!first)
            c.insertBlock();
        first = false;
        const QTextCharFormat &f = line.rfind("@@", 0) == 0 ? header
                                   : line[0] == '+'         ? added
                                   : line[0] == '-'         ? removed
                                                            : plain;
        c.insertText(QString::fromStdString(line), f);
    }
}

} // namespace ps::views
