#include "views/config/configpanel.h"

#include "core/config/configerror.h"
#include "core/config/keypath.h"
#include "core/config/override.h"
#include "views/config/intlistfield.h"

namespace ps::views {

using namespace core::configedit;

using core::config::Node;

ConfigPanel::ConfigPanel(ConfigSession *session, QWidget *parent) : QWidget(parent), m_session(session)
{
}

void ConfigPanel::bind(const std::string &key, QWidget *control)
{
    m_controls.emplace_back(key, control);
    if (auto *field = qobject_cast<IntListField *>(control))
        connect(field, &IntListField::problemChanged, this, &ConfigPanel::fieldProblemsChanged);
}

const Node *composedNode(const SessionResult &r, const std::string &key)
{
    return r.composed ? core::config::findPath(r.composed->config, key) : nullptr;
}

const core::profiling::VerlVersionTraits *verlTraits(const SessionResult &r)
{
    if (!r.analysis || r.analysis->model.framework != core::profiling::Framework::Verl)
        return nullptr;
    return &core::profiling::verlVersionTraits(r.analysis->model.verl.version);
}

QString scalarText(const Node *n)
{
    if (!n || n->isNull() || n->isContainer())
        return QString();
    if (n->kind() == Node::Kind::Bool)
        return n->asBool() ? "true" : "false";
    return QString::fromStdString(n->isStringLike() ? n->asString() : n->toPythonString());
}

Node valueFromText(const QString &text)
{
    const std::string s = text.trimmed().toStdString();
    try {
        Node v = core::config::parseOverrideValue(s);
        if (!v.isContainer() && !v.isStringLike())
            return v; // Int, Float, Bool, Null
    } catch (const core::config::ConfigError &) {
    }
    return Node::string(s);
}

} // namespace ps::views
