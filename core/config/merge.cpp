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
    forgetReplaced(parent.find(key), path);
    parent.set(key, value);
    recordSubtree(value, path);
}

void Merger::assignKeyOf(Node &parent, const Node &src, size_t i, const Node &value, const std::string &path)
{
    forgetReplaced(parent.findKeyOf(src, i), path);
    parent.setKeyOf(src, i, value);
    recordSubtree(value, path);
}

void Merger::forgetReplaced(const Node *old, const std::string &path)
{
    // The key's own chain keeps its history; what was below a replaced container is gone.
    if (!old)
        m_prov.eraseSubtree(path);
    else if (old->isContainer())
        m_prov.eraseBelow(path);
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
        const Node &srcValue = src.valueAt(i);
        // Keys compare as Python's do: an int key 1 from an override is not the string key '1',
        // and 1.0 merges into an existing 1, which keeps its kind (and so its path "x.1").
        const size_t at = dest.keyIndexOf(src, i);
        Node *destValue = at < dest.size() ? &dest.valueAt(at) : nullptr;
        std::string cp = childPath(path, destValue ? dest.keyAt(at) : src.keyAt(i));
        if (!destValue) {
            if (structMode)
                throw StructKeyError(cp);
            dest.setKeyOf(src, i, srcValue);
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
        assignKeyOf(dest, src, i, srcValue, cp);
    }
}

} // namespace ps::core::config
