// SPDX-License-Identifier: MIT
// Reading nsys serialized ids (layout and makers in trace_events.h: globalPid = (vmId << 48) | (pid << 24),
// globalTid = globalPid | tid): the process of a thread, in C++ and in SQL. Every query and key that relates a
// thread's rows to its process's goes through these (or pidOfGlobalId / tidOfGlobalTid), not through its own
// division by 0x1000000.
#pragma once

#include "profiler/model/trace_events.h"

#include <cstdint>
#include <string>

namespace placescope {

// The globalPid of a thread: its globalTid with the tid bits cleared. The vmId (or the salt that keeps merged ranks
// apart) stays in, so two ids belong to one process exactly when this is equal; pidOfGlobalId drops the vmId too,
// for keys that hold the operating system's pid alone.
inline int64_t globalPidOfGlobalTid(int64_t globalTid) { return globalTid - globalTid % 0x1000000; }

// The same two in SQL, for queries that join a thread's rows to its process's: "(r.globalTid / 16777216 *
// 16777216)" and "(r.globalTid / 16777216 % 16777216)".
inline std::string sqlGlobalPidOfGlobalTid(const std::string& column)
{
    return "(" + column + " / 16777216 * 16777216)";
}
inline std::string sqlPidOfGlobalId(const std::string& column) { return "(" + column + " / 16777216 % 16777216)"; }

} // namespace placescope
