// SPDX-License-Identifier: MIT
// The diff's three outputs: text for the terminal, JSON for scripts (integer nanoseconds and bytes; `kernels` is
// every kernel of the whole trace as {"name", "count_a", "count_b", "ns_a", "ns_b"}, per-step figures under
// `steps`, the --by grouping in the same shape under its own key) and one self-contained HTML file (inline SVG
// bar charts from analysis/render/svg_charts). A side that is a whatif -o prediction is named as one (`a`/`b`
// carry "prediction": {"from", "edits"}), and against a measured run the error (mean step, each compared step, kernel
// time, each class of GPU work) comes first in the text and HTML and sits under "prediction_error" in JSON. Pure
// functions returning the whole document.
#pragma once

#include "analysis/diff/run_diff.h"

#include <string>

namespace placescope {

enum class DiffFormat
{
    Text,
    Json,
    Html
};

Result<DiffFormat> parseDiffFormat(const std::string& name);

struct DiffRenderOptions
{
    size_t topRows = 20; // text and HTML: rows per table (0: all); JSON always has every row
    size_t nameWidth = 90; // text: clip names (0: never)
};

std::string renderDiffText(const RunDiff& diff, const DiffRenderOptions& options = {});
std::string renderDiffJson(const RunDiff& diff);
std::string renderDiffHtml(const RunDiff& diff, const DiffRenderOptions& options = {});
std::string renderDiff(const RunDiff& diff, DiffFormat format, const DiffRenderOptions& options = {});

} // namespace placescope
