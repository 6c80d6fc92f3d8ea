#pragma once
// Sets (or unsets) an environment variable for the rest of a scope and restores what was there
// before, even when a QCOMPARE returns early. Header-only, like the rest of tests/support.

#include <QByteArray>
#include <QtGlobal>

namespace ps::test {

class EnvGuard
{
public:
    // Remembers the variable; set() / unset() change it until the guard goes.
    explicit EnvGuard(const char *name) : m_name(name), m_old(qgetenv(name)), m_was(qEnvironmentVariableIsSet(name)) {}
    EnvGuard(const char *name, const QByteArray &value) : EnvGuard(name) { set(value); }
    ~EnvGuard()
    {
        if (m_was)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }
    EnvGuard(const EnvGuard &) = delete;
    EnvGuard &operator=(const EnvGuard &) = delete;

    void set(const QByteArray &value) const { qputenv(m_name, value); }
    void unset() const { qunsetenv(m_name); }

private:
    const char *m_name;
    QByteArray m_old;
    bool m_was;
};

} // namespace ps::test
