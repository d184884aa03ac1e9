// SPDX-License-Identifier: MIT
// A regular expression a user gives to pick names (kernels, API calls, ops): the one way the program matches one.
// Backed by RE2, whose matching takes time linear in the name and never recurses on it, so no pattern (`(a*)*b`,
// `.*gemm.*`) on any name (tens of kilobytes of C++ template) can crash the program or run for minutes, as
// std::regex did. The syntax is RE2's (Perl-like, no backreferences or lookaround); a match anywhere in the name
// counts, case-sensitive, names read as UTF-8.
#pragma once

#include "profiler/base/status.h"

#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace placescope {

class NamePattern
{
public:
    // One line (RE2's reason) when `pattern` is not a regular expression or would need more memory than a name
    // pattern may take (e.g. `(a{1000}){1000}`).
    static Result<NamePattern> compile(const std::string& pattern);

    // Whether the pattern matches anywhere in `name`.
    bool search(std::string_view name) const;

    const std::string& pattern() const { return m_pattern; }

private:
    std::string m_pattern;
    std::shared_ptr<const re2::RE2> m_re; // shared: edits holding a pattern are copied, RE2 is not copyable
};

} // namespace placescope
