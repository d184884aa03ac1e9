// SPDX-License-Identifier: MIT
// What Placescope knows about a GPU from its name: compute capability and the host link it sits on, with that
// link's copy figures. The one table the findings (analysis/findings: the pageable-copy rule's ceiling), the what-if
// `pinned` and `op:` edits (whatif/trace_link.h, when the trace has too few pinned copies to fit a link) and the
// layout pass's facts (placement/proposal/layout_facts.h) all read, so they cannot disagree about a GPU.
// A trace's own figures win where it has them (TARGET_INFO_GPU's computeMajor/Minor, measured pinned copies).
#pragma once

#include "profiler/base/status.h"

#include <string>

namespace placescope {

// Copy figures of one host link, from the "links" table of resources/placement/devices.json (the cost model's
// device table: the same file, so a link reads the same to the findings, the replay and the placement engine).
struct HostLinkFacts
{
    std::string key; // "gen4_x16"
    double theoreticalGBps = 0; // the link's rate per direction (PCI-SIG)
    double pinnedGBps = 0; // what cudaMemcpy of pinned memory reaches (estimate, see devices.json)
    double pageableGBps = 0;
    double pinnedLatencyUs = 0;
    double pageableLatencyUs = 0;
};

struct GpuFacts
{
    bool known = false; // false: a name the table does not know (then no compute capability, a PCIe 4 x16 link)
    std::string marker; // the part of the name that matched ("A100")
    double computeCapability = 0; // 7.0 Volta, 8.0 Ampere, 8.6/8.9 Ampere/Ada consumer, 9.0 Hopper, 10.0 Blackwell
    HostLinkFacts hostLink;
};

// Matched on the name, case-insensitively, longest marker first ("A100" before "A10", "GH200" before "H200").
GpuFacts gpuFactsFor(const std::string& gpuName);

// One link of devices.json by key ("gen3_x16", "gen4_x16", "gen5_x16").
Result<HostLinkFacts> hostLinkFacts(const std::string& key);

} // namespace placescope
