#pragma once
// A GUI test's own scratch folder and report cache, from construction until the test object goes:
// PROFSTUDIO_CACHE_DIR points into a temporary folder (never the user's cache) and QStandardPaths
// is in test mode (never the user's settings or recent files). Header-only, like tests/support.

#include "tests/support/envguard.h"

#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace ps::test {

class TestSandbox
{
public:
    TestSandbox()
    {
        m_cacheEnv.set(m_dir.filePath("cache").toUtf8());
        QStandardPaths::setTestModeEnabled(true);
    }

    // A path in the scratch folder.
    QString filePath(const QString &name) const { return m_dir.filePath(name); }

private:
    QTemporaryDir m_dir;
    EnvGuard m_cacheEnv{"PROFSTUDIO_CACHE_DIR"};
};

} // namespace ps::test
