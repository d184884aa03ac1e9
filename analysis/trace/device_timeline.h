// SPDX-License-Identifier: MIT
// DeviceTimeline: what each GPU did over the analysed steps, computed once for all rules and the report:
// busy time split into compute / communication (NCCL) / copies, idle time split by cause, and utilization
// over time. Idle causes follow HTA's idle breakdown, extended with input-bound and sync waits:
//   - the next GPU op's launch call returned (submitted it) after the GPU went idle -> the host was late; of that time,
//     what overlaps data-loading ranges on the host is input-bound, what follows a host sync that drained
//     the queue is a sync wait, the rest is host-bound;
//   - the op was submitted before the GPU went idle but started later -> launch latency / dependency ("other").
// Immutable after build(); safe to read from several threads.
#pragma once

#include "analysis/trace/intervals.h"
#include "analysis/trace/kernel_class.h"
#include "analysis/trace/step_detector.h"
#include "analysis/trace/trace_data.h"

#include <string>
#include <vector>

namespace placescope {

enum class IdleCause
{
    HostBound = 0,
    InputBound = 1,
    SyncWait = 2,
    Other = 3
};
inline constexpr int kIdleCauseCount = 4;
std::string_view idleCauseName(IdleCause cause);

struct IdleGap
{
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t causeNs[kIdleCauseCount] = { 0, 0, 0, 0 };
};

struct DeviceLane
{
    int64_t globalPid = 0;
    int64_t deviceId = 0;
    int64_t rank = -1;
    std::string label; // "GPU 0", "rank 1 GPU 1"
    IntervalList window; // analysed time (steps clipped to the lane's activity)
    IntervalList busy; // any GPU op
    IntervalList computeBusy; // non-communication kernels
    IntervalList commBusy; // NCCL / collective kernels
    IntervalList copyBusy; // memcpy + memset
    std::vector<IdleGap> gaps; // idle gaps inside the window, longer than the kernel-wait threshold
    int64_t idleNs = 0;
    int64_t causeNs[kIdleCauseCount] = { 0, 0, 0, 0 };
    std::vector<double> utilization; // busy fraction per bucket over the window's span
    int64_t bucketStartNs = 0;
    int64_t bucketNs = 0;
};

struct TimelineOptions
{
    int64_t kernelWaitNs = 30; // HTA: gaps shorter than this are kernel-to-kernel waits, not idle
    int utilizationBuckets = 60;
};

class DeviceTimeline
{
public:
    static DeviceTimeline build(const TraceData& trace, const StepSet& steps, const TimelineOptions& options = {});
    std::vector<DeviceLane> lanes;
    IntervalList dataLoading; // host ranges that load or preprocess input (all processes)
    IntervalList hostSyncs; // host blocked on the GPU (sync APIs, synchronous copies)
};

bool isDataLoadingRange(const std::string& name);
bool isSyncApi(const std::string& name);

} // namespace placescope
