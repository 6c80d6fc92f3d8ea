#pragma once
// The Configure workspace's start page: what it does and where to begin (open a primary config,
// start from a built-in preset, a recent config). Its actions are "open-config",
// "preset:<recipe id>" and "recent:<path>"; the workspace answers them.

class QWidget;

namespace ps::views {

class EmptyState;

EmptyState *configureStartPage(QWidget *parent);

} // namespace ps::views
