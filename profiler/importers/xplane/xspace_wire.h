// SPDX-License-Identifier: MIT
// A serialized XSpace split at its planes and each plane at its lines, without parsing the lines: the importer reads
// one line at a time (xline_view.h) while the writer's thread stores the rows of the line before (parsing the whole
// XSpace first left the writer idle for a third of the import), and lines it does not map (TensorFlow's derived lines,
// a quarter of the events of a TensorFlow capture) are never read. The rest of a plane is parsed with the generated
// classes but for its event metadata, read by hand too; either way a damaged or non-UTF-8 field is refused as a whole
// parse would refuse it (tests/profiler/xplane/xspace_wire_test.cpp holds the two to each other).
#pragma once

#include "profiler/importers/xplane/xplane.pb.h"

#include <google/protobuf/arena.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace placescope {

struct XPlaneParts
{
    const tensorflow::profiler::XPlane* header = nullptr; // every field but lines and event metadata
    std::vector<std::string_view> lines; // each line's serialized bytes, in file order
    // The event metadata's names by id (views into the plane's bytes): all the mapping reads of the metadata, read by
    // hand as the lines are, because a TensorFlow host plane holds thousands (one per op) and parsing them into the
    // generated map kept the writer waiting.
    std::unordered_map<int64_t, std::string_view> eventNames;
};

struct XSpaceParts
{
    const tensorflow::profiler::XSpace* header = nullptr; // every field but planes (hostnames, errors, warnings)
    std::vector<std::string_view> planes; // each plane's serialized bytes, split when mapped
};

// Splits `bytes` (which must outlive the result); headers live on `arena`. Nullopt when the bytes are not a readable
// message (truncated, a length or tag out of place, a header field that does not parse).
std::optional<XSpaceParts> splitXSpace(std::string_view bytes, google::protobuf::Arena& arena);
std::optional<XPlaneParts> splitXPlane(std::string_view planeBytes, google::protobuf::Arena& arena);

// A plane's or a line's id and name (fields 1 and 2 of both), read without parsing the rest; nullopt when the bytes
// are damaged or the name is not UTF-8. A plane or line that is not mapped is not parsed beyond this, so a damaged
// string inside it is not seen: only what the import reads must be whole.
struct XIdAndName
{
    int64_t id = 0;
    std::string_view name;
};
std::optional<XIdAndName> peekIdAndName(std::string_view bytes);

} // namespace placescope
