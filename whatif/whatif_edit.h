// SPDX-License-Identifier: MIT
// What-if edits: the fixes a user can try on a measured run, each a change to the ReplayGraph that keeps every
// measured duration and gap it does not touch. Syntax (placescope whatif --edit ...):
// REGEX is RE2 syntax (NamePattern: linear time, any pattern on any name).
//   no-sync[:REGEX]     host waits removed (all, or the calls whose API name matches REGEX)
//   kernels:REGEX=xF    matching GPU ops take F times as long
//   drop:REGEX          matching GPU ops removed, with launch calls that launched nothing else
//   drop:op:NAME        framework op NAME removed: its CPU time, its CUDA calls and their GPU work
//   pinned              pageable copies become pinned and asynchronous
//   launch=xF           CPU cost of launch calls scaled (CUDA graphs: about x0.1)
//   op:NAME=cpu|gpu     a framework op and its kernels moved to the other device
//   input=xF            input-pipeline time on the host scaled
//   workers=N           a DataLoader with num_workers=0 given N worker processes (loader_workers_edit.h)
//   overlap-comm        communication kernels on a stream of their own, after the work they follow
#pragma once

#include "profiler/base/name_pattern.h"
#include "profiler/base/status.h"
#include "whatif/replay_graph.h"

#include <string>
#include <vector>

namespace placescope {

struct WhatIfEdit
{
    enum class Kind
    {
        NoSync,
        Kernels,
        Drop,
        DropOp,
        Pinned,
        Launch,
        MoveOp,
        Input,
        LoaderWorkers,
        OverlapComm
    };
    Kind kind = Kind::NoSync;
    std::string text; // as the user wrote it
    std::string pattern; // regex, or the op's name for MoveOp and DropOp; empty: all
    double factor = 1.0; // LoaderWorkers: the number of workers
    bool toCpu = false; // MoveOp
    NamePattern regex; // compiled `pattern` (RE2 syntax, matched anywhere in the name); not for MoveOp
};

// One line naming what is wrong when `text` is not an edit (the CLI exits 2 with it).
Result<WhatIfEdit> parseEdit(const std::string& text);

struct EditOutcome
{
    std::string text; // the edit as given
    std::string understood; // what it was taken to mean
    int64_t matched = 0; // tasks (or gaps, or ops) it changed
    std::string matchedWhat; // what `matched` counts, with what came along: "3 ops, 6 CUDA calls, 6 GPU ops"
    std::string how; // how the new durations were obtained
    std::string whyNothing; // set by an edit that knows why it matched nothing: said instead of the plain "no change"
};

// Applies `edits` in order to `graph` (a copy of the measured graph). An edit that matches nothing says so in its
// outcome and changes nothing.
std::vector<EditOutcome> applyEdits(const TraceData& trace, const std::vector<WhatIfEdit>& edits, ReplayGraph& graph);

} // namespace placescope
