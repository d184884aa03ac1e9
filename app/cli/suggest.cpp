// SPDX-License-Identifier: MIT
#include "app/cli/suggest.h"

#include <algorithm>

namespace placescope::cli {
namespace {

// Optimal string alignment distance: Levenshtein plus the swap of two neighbours ("tpo" -> "top" is one edit).
size_t editDistance(const std::string& a, const std::string& b)
{
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i)
        d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j)
        d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({ d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost });
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

std::string nearestWord(const std::string& typed, const std::vector<std::string>& candidates)
{
    // Dashes do not count towards the word's length: `--tpo` is a three-letter word.
    const size_t letters = typed.size() - std::min(typed.find_first_not_of('-'), typed.size());
    const size_t allowed = std::max<size_t>(1, letters / 3);
    std::string best;
    size_t bestDistance = allowed + 1;
    for (const std::string& candidate : candidates) {
        const size_t distance = editDistance(typed, candidate);
        if (distance < bestDistance) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return best;
}

} // namespace placescope::cli
