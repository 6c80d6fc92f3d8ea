#include "views/config/configurestartpage.h"

#include "views/common/emptystate.h"
#include "views/common/recentfiles.h"
#include "views/config/recipes.h"

#include <QFileInfo>

namespace ps::views {

EmptyState *configureStartPage(QWidget *parent)
{
    auto *page = new EmptyState(
        "Configure a profiled run",
        "Open the primary config of an RLinf or verl checkout — <code>examples/embodiment/config/*.yaml</code> or "
        "<code>verl/trainer/config/ppo_trainer.yaml</code>; its folder is the config root. Or start from a built-in "
        "preset: pick the primary config it applies to. Every edit recomposes and revalidates as you go; the "
        "exports are what Hydra would compose.",
        parent);
    page->addAction("open-config", "Open Config…");
    for (const Recipe &r : builtinRecipes())
        page->addAction("preset:" + r.id, "Start from preset: " + r.label + "…");
    for (const QString &recent : RecentFiles("recent/configs").entries().mid(0, 4))
        page->addAction("recent:" + recent,
                        "Recent: " + QFileInfo(recent).fileName() + " — " + QFileInfo(recent).absolutePath());
    return page;
}

} // namespace ps::views
