// SPDX-License-Identifier: MIT
#include "profiler/importers/kineto_json/kineto_collective_args.h"

#include <nlohmann/json.hpp>

namespace placescope {

std::string collectiveExtra(const KinetoArgs& a)
{
    if (a.collectiveName.empty())
        return {};
    nlohmann::ordered_json extra;
    auto text = [&extra](const char* key, std::string_view value) {
        if (!value.empty())
            extra[key] = std::string(value);
    };
    auto number = [&extra](const char* key, const OptInt& value) {
        if (value)
            extra[key] = *value;
    };
    text("Collective name", a.collectiveName);
    number("In msg nelems", a.inMsgNelems);
    number("Out msg nelems", a.outMsgNelems);
    number("Group size", a.groupSize);
    text("dtype", a.dtype);
    text("Process Group Name", a.processGroupName);
    text("Process Group Description", a.processGroupDesc);
    text("Process Group Ranks", a.processGroupRanks);
    number("Seq", a.collectiveSeq);
    // Names come from the trace: replace bytes that are not UTF-8 rather than fail the import over them.
    return extra.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace placescope
