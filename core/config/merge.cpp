#include "core/config/merge.h"

#include "core/config/configerror.h"

namespace ps::core::config {

std::string childPath(const std::string &parent, const std::string &key)
{
    return parent.empty() ? key : parent + "." + key;
}

void Merger::recordOne(const Node &n, const std::string &path)
{
    ProvenanceStep s = m_step;
    if (m_useNodeMarks && n.mark.isKnown())
        s.mark = n.mark;
    m_prov.record(path, std::move(s));
}

void Merger::recordSubtree(const Node &n, const std::string &path)
{
    recordOne(n, path);
    if (n.isDict()) {
        for (size_t i = 0; i < n.size(); ++i)
            recordSubtree(n.valueAt(i), childPath(path, n.keyAt(i)));
    } else if (n.isList()) {
        for (size_t i = 0; i < n.items().size(); ++i)
            recordSubtree(n.items()[i], childPath(path, std::to_string(i)));
    }
}

void Merger::assign(Node &parent, const std::string &key, const Node &value, const std::string &path)
{
    // The key's own chain keeps its history; what was below a replaced container is gone.
    const Node *old = parent.find(key);
    if (!old)
        m_prov.eraseSubtree(path);
    else if (old->isContainer())
        m_prov.eraseBelow(path);
    parent.set(key, value);
    recordSubtree(value, path);
}

void Merger::assignItem(Node &list, size_t index, const Node &value, const std::string &path)
{
    if (list.items()[index].isContainer())
        m_prov.eraseBelow(path);
    list.items()[index] = value;
    recordSubtree(value, path);
}

void Merger::mergeDict(Node &dest, const Node &src, const std::string &path, bool structMode)
{
    for (size_t i = 0; i < src.size(); ++i) {
        const std::string &key = src.keyAt(i);
        const Node &srcValue = src.valueAt(i);
        std::string cp = childPath(path, key);
        Node *destValue = dest.find(key);
        if (!destValue) {
            if (structMode)
                throw StructKeyError(cp);
            dest.set(key, srcValue);
            recordSubtree(srcValue, cp);
            continue;
        }
        if (destValue->isDict() && srcValue.isDict()) {
            recordOne(srcValue, cp);
            mergeDict(*destValue, srcValue, cp, structMode);
            continue;
        }
        if (srcValue.isMissing())
            continue; // "???" never clobbers: OmegaConf keeps the earlier value
        if (destValue->isList() && srcValue.isDict())
            throw ConfigError("Cannot merge DictConfig with ListConfig at '" + cp + "'", srcValue.mark, cp);
        if (destValue->isDict() && srcValue.isList())
            throw ConfigError("Cannot merge ListConfig with DictConfig at '" + cp + "'", srcValue.mark, cp);
        assign(dest, key, srcValue, cp);
    }
}

} // namespace ps::core::config
