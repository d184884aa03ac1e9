// SPDX-License-Identifier: MIT
// Why nothing could be traced, asked from the launcher after the program ended without leaving a part: is
// there an NVIDIA driver (libcuda.so.1), does it initialize, does it see a GPU, is it new enough for CUDA 13.
// The driver is loaded with dlopen, so Placescope itself never needs one.
//
// Free function; call from one thread (it may initialize the driver in the calling process).
#pragma once

#include <string>

namespace placescope::capture {

// One line: the cause and what to do. `libraryName` is for tests ("libcuda.so.1" in real use).
std::string diagnoseNoTrace(const char* libraryName = "libcuda.so.1");

} // namespace placescope::capture
