// SPDX-License-Identifier: MIT
// TensorBoard's trace-viewer JSON (<host>.trace.json.gz): the Chrome-trace dialect TensorBoard's profile plugin writes
// from an XSpace (tensorflow/tsl xplane_to_trace_events.cc + trace_events_to_json.cc): one process per plane named
// by its process_name ("/host:CPU" is pid 1, "/device:GPU:N" pid 1000 + the plane's id), one thread per line named by
// its thread_name ("Stream #14(MemcpyH2D)", a host thread), complete events ("ph":"X", ts/dur in microseconds to the
// picosecond) whose args hold the XPlane stats as strings (correlation_id, memcpy_details, group_id) and long_name
// when the name shown is a display name. The importer rebuilds the XSpace from it and maps that with the XPlane
// importer's rules (xspace_import.h), so a capture read from either file gives the same kernels and copies. What the
// JSON lacks, the trace lacks: kernel launch shapes (kernel_details is internal to TensorBoard), memory events
// (MemoryAllocation/Deallocation are internal events), the GPU planes' device facts beyond their names.
#pragma once

#include <string_view>

namespace placescope {

// True when a JSON trace's first uncompressed bytes are TensorBoard's dialect: an object whose first events name a
// process "/host:..." or "/device:..." (process_name metadata, which TensorBoard writes before every event). Kineto
// names its processes after the OS process or the GPU ("python", "GPU 0"), never so.
bool looksLikeTensorBoardTrace(std::string_view contentHead);

} // namespace placescope
