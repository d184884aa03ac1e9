// SPDX-License-Identifier: MIT
// Kernel names as people read them. One shortener for the whole project: the trace writer stores its result in
// CUPTI_ACTIVITY_KIND_KERNEL.shortName (as nsys does), and `stats`, `diff` and `report --short-names` group by it.
#pragma once

#include <string>
#include <string_view>

namespace placescope {

// nsys's shortName: the function name without return type, namespaces, template arguments and parameters
// ("void at::native::foo<float>(int)" -> "foo"). "(anonymous namespace)" is a namespace, not a parameter list:
// "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<...>(...)" -> "multi_tensor_apply_kernel".
std::string shortKernelName(std::string_view name);

} // namespace placescope
