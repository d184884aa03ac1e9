// SPDX-License-Identifier: MIT
// How a file says it is a Placescope trace before any table is read: SQLite's PRAGMA application_id holds 'PSCT'
// (bytes 68-71 of the file header, where file(1) and shared-mime-info look: packaging/linux/placescope-mime.xml),
// and PRAGMA user_version the schema version (kTraceSchemaVersion). TraceWriter stamps both; openTrace and the
// importer read them (identifySqliteFile, trace_file.h). Traces written before the stamp have application_id 0
// and are still known by their PS_META table; nsys exports have application_id 0 and no PS_META.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace placescope {

inline constexpr int64_t kTraceApplicationId = 0x50534354; // "PSCT": the header stores it big-endian

// "0x47504B47 ('GPKG')": the id in hex, and as four characters when they are printable (most ids are a tag).
inline std::string describeApplicationId(int64_t id)
{
    const auto value = static_cast<uint32_t>(id);
    char text[32];
    std::snprintf(text, sizeof text, "0x%08X", static_cast<unsigned>(value));
    std::string tag;
    for (int shift = 24; shift >= 0; shift -= 8) {
        const char c = static_cast<char>((value >> shift) & 0xFF);
        if (c < 0x20 || c > 0x7E)
            return text;
        tag += c;
    }
    return std::string(text) + " ('" + tag + "')";
}

} // namespace placescope
