#pragma once
// The selected event's details beside the timeline, foldable into a strip one line of text wide
// so a laptop's timeline gets the width back. Folded, the strip's tooltip names the selected event
// and a click unfolds it to the width it had. The fold is remembered per screen size
// (layoutmemory.h), as the splitters are.

#include <QWidget>

class QAction;
class QAbstractButton;
class QToolButton;

namespace ps::views {

class DetailsPane;

class DetailsDock : public QWidget
{
    Q_OBJECT
public:
    explicit DetailsDock(QWidget *parent = nullptr);

    DetailsPane *pane() const { return m_pane; }
    bool isFolded() const { return m_folded; }
    void setFolded(bool folded);
    // Checkable "Fold Event Details" (Ctrl+Shift+D), for the workspace to add.
    QAction *foldAction() const { return m_foldAction; }
    QAbstractButton *strip() const { return m_strip; }
    // The strip's tooltip follows the shown event (call after the pane changed).
    void refreshStrip();

signals:
    void foldedChanged(bool folded);

protected:
    void showEvent(QShowEvent *event) override;

private:
    int unfoldedWidth() const;
    void resizeInSplitter(int width);

    DetailsPane *m_pane = nullptr;
    QWidget *m_header = nullptr;
    QToolButton *m_foldButton = nullptr;
    QAbstractButton *m_strip = nullptr;
    QAction *m_foldAction = nullptr;
    bool m_folded = false;
    bool m_restored = false; // the remembered fold was applied at the first show
    int m_unfoldedWidth = 0;
};

} // namespace ps::views
