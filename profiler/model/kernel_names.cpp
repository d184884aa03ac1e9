// SPDX-License-Identifier: MIT
#include "profiler/model/kernel_names.h"

namespace placescope {

std::string shortKernelName(std::string_view name)
{
    static constexpr std::string_view kAnonymous = "(anonymous namespace)";
    size_t paren = std::string_view::npos;
    int angle = 0;
    for (size_t i = 0; i < name.size(); ++i) {
        char c = name[i];
        if (c == '<')
            ++angle;
        else if (c == '>' && angle > 0)
            --angle;
        else if (c == '(' && angle == 0) {
            if (name.substr(i, kAnonymous.size()) == kAnonymous) {
                i += kAnonymous.size() - 1;
                continue;
            }
            paren = i;
            break;
        }
    }
    std::string_view head = name.substr(0, paren);
    // Strip template arguments at the end of the function name.
    if (!head.empty() && head.back() == '>') {
        int depth = 0;
        for (size_t i = head.size(); i-- > 0;) {
            if (head[i] == '>')
                ++depth;
            else if (head[i] == '<' && --depth == 0) {
                head = head.substr(0, i);
                break;
            }
        }
    }
    size_t start = head.find_last_of(": ");
    std::string_view result = start == std::string_view::npos ? head : head.substr(start + 1);
    return std::string(result.empty() ? name : result);
}

} // namespace placescope
