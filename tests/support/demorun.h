#pragma once
// A demo run written for a test: the ActorGroup ranks, steps and seed it cares about, under `dir`.
// A run that cannot be written ends the test run (nothing after it could mean anything).

#include "core/demo/demorun.h"

#include <QString>
#include <QtGlobal>

#include <string>

inline ps::core::demo::DemoResult writeTestDemo(const QString &dir, int ranks, int steps, uint64_t seed)
{
    ps::core::demo::DemoOptions o;
    o.outDir = dir.toStdString();
    o.ranks = ranks;
    o.steps = steps;
    o.seed = seed;
    ps::core::demo::DemoResult result;
    std::string error;
    if (!ps::core::demo::writeDemoRun(o, result, error))
        qFatal("demo: %s", error.c_str());
    return result;
}
