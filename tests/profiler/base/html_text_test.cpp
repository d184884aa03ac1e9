// SPDX-License-Identifier: MIT
// Text in an HTML page or SVG chart (the analyze, diff and job HTML pages) cannot end an element or an attribute.
#include "profiler/base/html_text.h"

#include <gtest/gtest.h>

namespace placescope {
namespace {

TEST(HtmlText, EscapesMarkupAndBothQuotes)
{
    EXPECT_EQ(htmlEscape("gemm<float, 128>"), "gemm&lt;float, 128&gt;");
    EXPECT_EQ(htmlEscape(R"(a "b" & 'c')"), "a &quot;b&quot; &amp; &#39;c&#39;");
    EXPECT_EQ(htmlEscape("plain_name"), "plain_name");
    EXPECT_EQ(htmlEscape(""), "");
}

} // namespace
} // namespace placescope
