// SPDX-License-Identifier: MIT
#include "placement/graph/model_graph.h"

#include <limits>

namespace placescope {

const char* layoutName(DataLayout layout)
{
    switch (layout) {
    case DataLayout::Nchw:
        return "NCHW";
    case DataLayout::Nhwc:
        return "NHWC";
    case DataLayout::None:
        break;
    }
    return "none";
}

int64_t dtypeElementBytes(const std::string& dtype)
{
    struct Size
    {
        const char* name;
        int64_t bytes;
    };
    static constexpr Size kSizes[] = {
        { "float32", 4 },
        { "float16", 2 },
        { "bfloat16", 2 },
        { "float64", 8 },
        { "int8", 1 },
        { "uint8", 1 },
        { "int16", 2 },
        { "uint16", 2 },
        { "int32", 4 },
        { "uint32", 4 },
        { "int64", 8 },
        { "uint64", 8 },
        { "bool", 1 },
        { "complex64", 8 },
        { "complex128", 16 },
        { "float8", 1 },
    };
    for (const Size& size : kSizes)
        if (dtype == size.name)
            return size.bytes;
    return 0;
}

int64_t staticTensorBytes(const std::vector<int64_t>& shape, bool shapeKnown, const std::string& dtype)
{
    const int64_t elementBytes = dtypeElementBytes(dtype);
    if (!shapeKnown || elementBytes == 0)
        return 0;
    int64_t bytes = elementBytes;
    for (int64_t dim : shape) {
        if (dim < 0)
            return 0;
        if (dim != 0 && bytes > std::numeric_limits<int64_t>::max() / dim)
            return 0;
        bytes *= dim;
    }
    return bytes;
}

} // namespace placescope
