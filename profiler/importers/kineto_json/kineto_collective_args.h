// SPDX-License-Identifier: MIT
// NCCL collective metadata of a Kineto event (PyTorch's record_param_comms op and NCCL kernels carry it in args)
// as the JSON object stored in PS_FRAMEWORK_OPS.extra, under Kineto's own key names, so a collectives report
// (HTA's, or SQL: json_extract(extra, '$."Collective name"')) finds what the trace said.
#pragma once

#include "profiler/importers/kineto_json/kineto_record.h"

#include <string>

namespace placescope {

// {"Collective name": "allreduce", "In msg nelems": 2049000, "Out msg nelems": ..., "Group size": 2,
//  "dtype": "Float", "Process Group Name": "0", "Process Group Description": "default_pg",
//  "Process Group Ranks": "[0, 1]", "Seq": 12} with the keys the event had; empty when it names no collective.
std::string collectiveExtra(const KinetoArgs& args);

} // namespace placescope
