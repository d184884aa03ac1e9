// SPDX-License-Identifier: MIT
// The `workers=N` edit: a DataLoader that loads its batches on the thread that trains (num_workers=0) given N worker
// processes. Each batch's loading, as measured inside that thread's `__next__`, runs on worker i mod N in turn; the
// thread then waits in `__next__` only until its batch is ready (a wait, which shrinks when the workers keep ahead
// and grows back when they cannot). `input=xF` only scales the loading where it is; this moves it off the thread.
#pragma once

#include "whatif/whatif_edit.h"

namespace placescope {

EditOutcome applyLoaderWorkers(const TraceData& trace, const WhatIfEdit& edit, ReplayGraph& graph);

} // namespace placescope
