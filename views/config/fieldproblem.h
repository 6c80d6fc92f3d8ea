#pragma once
// A form field whose text is not committed: the key it edits and why. The panels find them
// (ConfigurePanels::fieldProblems), Diagnostics lists them as errors at their keys, and the
// exports wait while there are any (ConfigureExports::blocker).

#include <QString>

namespace ps::views {

struct FieldProblem
{
    QString key;
    QString message;
};

} // namespace ps::views
