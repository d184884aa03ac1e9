// SPDX-License-Identifier: MIT
#include "profiler/base/file_head.h"

namespace placescope {

FileHeadKind classifyFileHead(std::string_view head)
{
    if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b)
        return FileHeadKind::Gzip;
    static constexpr std::string_view kSqliteMagic("SQLite format 3\0", 16);
    if (head.substr(0, kSqliteMagic.size()) == kSqliteMagic)
        return FileHeadKind::Sqlite;
    // A UTF-8 byte order mark (Windows editors write one) before the JSON: the Kineto splitter skips it too.
    static constexpr std::string_view kUtf8Bom("\xEF\xBB\xBF");
    if (head.substr(0, kUtf8Bom.size()) == kUtf8Bom)
        head.remove_prefix(kUtf8Bom.size());
    for (size_t i = 0; i < head.size(); ++i) {
        const char c = head[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        if (i + 1 < head.size() && head[i + 1] == '\0')
            break; // "{\0\"\0": UTF-16 text, which no JSON reader here takes (JSON holds no raw NUL)
        if (c == '{')
            return FileHeadKind::JsonObject;
        if (c == '[')
            return FileHeadKind::JsonArray;
        break;
    }
    return FileHeadKind::Other;
}

} // namespace placescope
