// SPDX-License-Identifier: MIT
// Text placed in an HTML page or an SVG chart: &, <, >, " and ' as entities, so a kernel or file name can neither
// end an element nor an attribute (quoted with " or '). Every HTML the program writes (analyze, diff, job analyze,
// their SVG charts) escapes through this.
#pragma once

#include <string>

namespace placescope {

std::string htmlEscape(const std::string& text);

} // namespace placescope
