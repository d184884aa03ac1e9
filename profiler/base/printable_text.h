// SPDX-License-Identifier: MIT
// Text the program writes to a terminal that holds what a user gave it (a file name, a pattern, an op name): a
// control character or a byte that is not UTF-8 is shown escaped, never written as it is. A name with a newline
// then keeps an error on its one line, and an escape sequence in a name (ESC [ 2 J, a title change, a hyperlink)
// never reaches the terminal. printLine is how every line of the CLI's stderr is written.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace placescope {

// `text` with \n, \r and \t shown so, every other C0 control byte and DEL as \xHH, a C1 control (U+0080..U+009F,
// which some terminals take as ESC [) as \u0080.., and each byte of a sequence that is not UTF-8 as \xHH; anything
// else (printable ASCII, UTF-8 text) as it is.
std::string printableText(std::string_view text);

// printf's `format` and arguments as one line on `stream`: the formatted text made printable (a trailing newline
// of the format is the line's end, not part of its text) and a newline.
[[gnu::format(printf, 2, 3)]] void printLine(std::FILE* stream, const char* format, ...);

} // namespace placescope
