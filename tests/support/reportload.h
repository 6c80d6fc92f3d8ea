#pragma once
// Loads one report for a test the way the application does (reader registry, no cache), with
// the reason printed when it fails so that a failing QVERIFY(report) says why.

#include "core/trace/read/traceloader.h"

#include <QString>
#include <QtGlobal>

#include <string>

namespace ps::test {

inline ps::core::trace::ReportPtr
loadTestReport(const QString &path, const ps::core::trace::ReadContext &ctx = ps::core::trace::ReadContext{})
{
    std::string error;
    ps::core::trace::ReportPtr r = ps::core::trace::loadReport(path.toStdString(), ctx, error);
    if (!r)
        qWarning("%s: %s", qPrintable(path), error.c_str());
    return r;
}

} // namespace ps::test
