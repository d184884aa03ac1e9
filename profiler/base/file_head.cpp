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
    for (char c : head) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        if (c == '{')
            return FileHeadKind::JsonObject;
        if (c == '[')
            return FileHeadKind::JsonArray;
        break;
    }
    return FileHeadKind::Other;
}

} // namespace placescope
