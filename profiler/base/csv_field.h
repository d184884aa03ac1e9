// SPDX-License-Identifier: MIT
// One CSV field as RFC 4180 writes it: as it is unless it holds a comma, a double quote or a line break, else in
// double quotes with each inner quote doubled. Every CSV the program writes (`placescope query`, the report
// tables' --format csv) quotes through this, so a spreadsheet reads them all alike.
#pragma once

#include <string>

namespace placescope {

std::string csvField(const std::string& text);

} // namespace placescope
