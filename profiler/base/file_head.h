// SPDX-License-Identifier: MIT
// What an input file's first bytes say it is. The one place gzip, SQLite and JSON inputs are told apart: the
// trace importers (sniffTraceFormat) and the model loaders (sniffGraphSource) both sniff this way, then decide
// what each kind means for them.
#pragma once

#include <string_view>

namespace placescope {

enum class FileHeadKind
{
    Gzip, // 1f 8b
    Sqlite, // "SQLite format 3\0"
    JsonObject, // first byte after JSON blanks is '{'
    JsonArray, // ... is '['
    Other,
};

FileHeadKind classifyFileHead(std::string_view head);

} // namespace placescope
