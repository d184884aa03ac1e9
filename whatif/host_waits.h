// SPDX-License-Identifier: MIT
// Host waits the replay graph makes from more than one call: time a thread spends blocked is a wait on what it
// waits for, which shrinks or grows when that moves, and not CPU work frozen in a gap (issue 25).
//   - A polling loop (two or more cudaStreamQuery/cudaEventQuery calls in a row on a thread, with nothing but
//     CPU gaps between them) is one host call spanning the loop; the graph's wait binding then ties it to the
//     GPU work it polled for. The later queries ride on the first as nested calls.
//   - A DataLoader `__next__` (or any data-loading range) on a thread that launches GPU work, in which the work of
//     a loader thread of the same process ends (a thread with data-loading ranges and no CUDA call), waited for
//     that work: the loader's ranges become a lane of their own and the thread's next call starts after the
//     range it waited for (+ the measured lag), its own CPU time in the gap kept as work (the first call's anchor
//     moves back by the wait, so the first step follows the loader too). Where the process shows
//     no loader thread's work, the range stays CPU work and ReplayQuality::loaderWaitsAsWork says so.
#pragma once

#include "analysis/trace/trace_data.h"
#include "whatif/replay_graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace placescope {

// Merges each thread's polling loops into their first call (before the graph's waits are bound); returns the
// merged calls, in task order. Absorbed calls leave their lane (dropped, rowId -1, kept as NestedCall rows).
std::vector<int32_t> mergePollingLoops(const TraceData& trace, ReplayGraph& graph);

// Adds the loader threads' lanes and binds the data-loading ranges of launching threads to them.
void bindLoaderWaits(const TraceData& trace, ReplayGraph& graph);

// The range a thread waits in for its next batch (PyTorch's enumerate(DataLoader)#...__next__).
bool isBatchWait(const std::string& name);

// A batch wait on a lane of a thread that launches GPU work (outermost: _next_data inside __next__ is part of it).
struct BatchWait
{
    int32_t lane = -1;
    int64_t startNs = 0, endNs = 0;
    int32_t nameId = -1;
};
std::vector<BatchWait> batchWaitsOfLaunchingThreads(const TraceData& trace, const ReplayGraph& graph);

// The call that ends `wait`'s gap (the lane's first call starting at or after the wait's end) and the time its
// thread began waiting (the wait's start, or the previous call's end if later); call -1: none after the wait.
struct CallAfterWait
{
    int32_t call = -1;
    int64_t waitFromNs = 0;
};
CallAfterWait callAfterBatchWait(const ReplayGraph& graph, const BatchWait& wait);

// Ties `after.call` to `producer`: it starts no earlier than the producer's end + the CPU time it measured after the
// batch came (`deliveredAt`), and its gap keeps only the CPU time that was not spent waiting.
void waitForProducer(ReplayGraph& graph, const CallAfterWait& after, int32_t producer, int64_t deliveredAt);

} // namespace placescope
