// SPDX-License-Identifier: MIT
#include "placement/graph/torch_tensor_facts.h"

namespace placescope {

std::string dtypeFromTorchName(const std::string& name)
{
    std::string bare = name;
    if (bare.rfind("Tensor(", 0) == 0 && bare.size() > 8 && bare.back() == ')')
        bare = bare.substr(7, bare.size() - 8);
    struct Alias
    {
        const char* torch;
        const char* dtype;
    };
    static constexpr Alias kAliases[] = {
        { "float", "float32" },
        { "double", "float64" },
        { "c10::Half", "float16" },
        { "c10::BFloat16", "bfloat16" },
        { "long", "int64" },
        { "long int", "int64" },
        { "int64_t", "int64" },
        { "int", "int32" },
        { "short", "int16" },
        { "short int", "int16" },
        { "signed char", "int8" },
        { "unsigned char", "uint8" },
        { "bool", "bool" },
        { "c10::complex<float>", "complex64" },
        { "c10::complex<double>", "complex128" },
        { "c10::Float8_e4m3fn", "float8" },
        { "c10::Float8_e5m2", "float8" },
    };
    for (const Alias& alias : kAliases)
        if (bare == alias.torch)
            return alias.dtype;
    return "";
}

std::string deviceFromTorchName(const std::string& name)
{
    if (name.rfind("cuda", 0) == 0)
        return "gpu";
    if (name == "cpu")
        return "cpu";
    return name;
}

DataLayout layoutFromStrides(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides)
{
    if (shape.size() != 4 || strides.size() != 4)
        return DataLayout::None;
    const int64_t c = shape[1], h = shape[2], w = shape[3];
    // A dimension of size 1 may carry any stride; compare only the strides of dimensions that move.
    auto matches = [&](int dim, int64_t expected) { return shape[dim] <= 1 || strides[dim] == expected; };
    if (matches(3, 1) && matches(2, w) && matches(1, h * w) && matches(0, c * h * w))
        return DataLayout::Nchw;
    if (matches(1, 1) && matches(3, c) && matches(2, w * c) && matches(0, h * w * c))
        return DataLayout::Nhwc;
    return DataLayout::None;
}

} // namespace placescope
