// SPDX-License-Identifier: MIT
// Which CUDA API calls the `runtime` kind records. A PyTorch training step makes thousands of pure query calls
// (cudaGetDevice alone was 66 % of a ResNet-50 step's runtime records on an H100) that never cause GPU work;
// recording them roughly triples the capture's overhead for nothing a user reads. So `runtime` records every
// runtime call except those queries, plus the driver calls that launch or move work (cuLaunchKernel from cuBLAS
// and cuDNN, async copies and sets, allocations): without them a library's kernels have no launch record.
// `--kinds driver` records every driver call instead.
//
// Pure data; thread-safe.
#pragma once

#include "profiler/capture/cupti_api.h"

#include <cstdint>
#include <vector>

namespace placescope::capture {

// Runtime calls left out of `runtime`: queries with no GPU work (cudaGetDevice, cudaGetLastError...).
const std::vector<CUpti_CallbackId>& quietRuntimeCalls();
// Driver calls recorded with `runtime` when `driver` is not chosen: launches, async copies/sets, allocations.
const std::vector<CUpti_CallbackId>& workDriverCalls();

// Applies the selection after the RUNTIME/DRIVER kinds were enabled for `kinds` (CaptureConfig bits).
void applyApiSelection(CuptiApi& api, uint32_t kinds);

} // namespace placescope::capture
