// SPDX-License-Identifier: MIT
#include "profiler/base/name_pattern.h"

#include <re2/re2.h>

namespace placescope {

namespace {

// What one compiled pattern may take (RE2's default is 8 MiB): enough for any pattern a person types, a bound on
// what a generated or hostile one can make the program allocate.
constexpr int64_t kMaxPatternMemory = 32 << 20;

} // namespace

Result<NamePattern> NamePattern::compile(const std::string& pattern)
{
    RE2::Options options;
    options.set_log_errors(false); // the reason is returned, not written to stderr
    options.set_max_mem(kMaxPatternMemory);
    auto re = std::make_shared<const RE2>(pattern, options);
    if (!re->ok())
        return Status::error("'" + pattern + "' is not a regular expression (" + re->error() + ")");
    NamePattern compiled;
    compiled.m_pattern = pattern;
    compiled.m_re = std::move(re);
    return compiled;
}

bool NamePattern::search(std::string_view name) const { return m_re && RE2::PartialMatch(name, *m_re); }

} // namespace placescope
