#pragma once
// CSV fields, one quoting for every CSV ProfStudio writes: the CLI's --format csv and the
// desktop's Copy as CSV.

#include <string>
#include <string_view>

namespace ps::core {

// A CSV field (RFC 4180): as is, or in double quotes with inner quotes doubled when it holds a
// comma, a quote or a line break.
std::string csvField(std::string_view text);

// A field whose text comes from a trace or a path (a range, kernel or group name), in CSV the CLI
// prints: its control characters escaped as terminalSafe does (#37: a name must not clear the
// screen or forge a record), then quoted as csvField. The desktop's clipboard keeps csvField.
std::string csvTextField(std::string_view text);

} // namespace ps::core
