// SPDX-License-Identifier: MIT
// The one writer of aligned text tables (`placescope stats`, `diff`, `report NAME`, `whatif`): widths from the
// content, two spaces between columns, numbers right-aligned and text left-aligned, the last column left
// unpadded (it holds the long names, which may run on). No trailing spaces.
#pragma once

#include <string>
#include <vector>

namespace placescope {

enum class Align
{
    Left,
    Right
};

struct TextTable
{
    std::vector<std::string> header; // empty: no header line
    std::vector<std::vector<std::string>> rows; // each as wide as the header (or as the first row without one)
    // One per column; missing entries: Right, except the last column, which is Left (the name column).
    std::vector<Align> align;
    std::string indent = " "; // before every line
};

// The table's lines, each ending in '\n'.
std::string renderTextTable(const TextTable& table);
// The usual table: numbers right, the last (name) column left, one space of indent.
std::string renderTextTable(std::vector<std::string> header, std::vector<std::vector<std::string>> rows);

} // namespace placescope
