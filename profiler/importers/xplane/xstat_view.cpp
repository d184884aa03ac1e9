// SPDX-License-Identifier: MIT
#include "profiler/importers/xplane/xstat_view.h"

namespace placescope {

XStatView statView(const tensorflow::profiler::XStat& stat)
{
    using Stat = tensorflow::profiler::XStat;
    using Kind = XStatView::Kind;
    XStatView view;
    view.metadataId = stat.metadata_id();
    switch (stat.value_case()) {
    case Stat::kDoubleValue:
        view.kind = Kind::Double;
        view.doubleValue = stat.double_value();
        break;
    case Stat::kUint64Value:
        view.kind = Kind::Uint64;
        view.unsignedValue = stat.uint64_value();
        break;
    case Stat::kInt64Value:
        view.kind = Kind::Int64;
        view.signedValue = stat.int64_value();
        break;
    case Stat::kStrValue:
        view.kind = Kind::Str;
        view.text = stat.str_value();
        break;
    case Stat::kBytesValue:
        view.kind = Kind::Bytes;
        view.text = stat.bytes_value();
        break;
    case Stat::kRefValue:
        view.kind = Kind::Ref;
        view.unsignedValue = stat.ref_value();
        break;
    default:
        break;
    }
    return view;
}

} // namespace placescope
