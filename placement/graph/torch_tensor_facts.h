// SPDX-License-Identifier: MIT
// What PyTorch's traces say about a tensor, in ModelGraph's words: dtype names (the execution trace's
// "Tensor(c10::Half)", the profiler's "c10::Half" / "long int"), device strings and memory format from strides.
#pragma once

#include "placement/graph/model_graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope {

// "float", "Tensor(float)", "c10::Half", "long int", ... -> "float32", "float16", "int64"; "" when not a tensor
// dtype PyTorch names (Scalar, None, GenericList...).
std::string dtypeFromTorchName(const std::string& name);

// "cuda:0" / "cuda" -> "gpu", "cpu" -> "cpu"; other devices (mps, meta, xla) keep their own name.
std::string deviceFromTorchName(const std::string& name);

// Rank-4 tensors: contiguous strides are NCHW, channels_last strides are NHWC; anything else (other ranks,
// broadcast or sliced views, missing strides) is None. Ambiguous cases (C == 1 or H == W == 1) read as NCHW.
DataLayout layoutFromStrides(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides);

} // namespace placescope
