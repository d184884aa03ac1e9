// SPDX-License-Identifier: MIT
// Factories of the built-in rules, one per file in this folder. makeDefaultRules() lists them.
#pragma once

#include "analysis/findings/finding_rule.h"

namespace placescope {

std::unique_ptr<FindingRule> makeGpuIdleRule();
std::unique_ptr<FindingRule> makePageableCopyRule();
std::unique_ptr<FindingRule> makeSyncCopyRule();
std::unique_ptr<FindingRule> makeSmallCopyRule();
std::unique_ptr<FindingRule> makeHostRoundTripRule();
std::unique_ptr<FindingRule> makeCpuFallbackRule();
std::unique_ptr<FindingRule> makeLayoutConversionRule();
std::unique_ptr<FindingRule> makeTensorCoreRule();
std::unique_ptr<FindingRule> makeLaunchBoundRule();
std::unique_ptr<FindingRule> makeMemoryPeakRule();
std::unique_ptr<FindingRule> makeAllocationChurnRule();
std::unique_ptr<FindingRule> makeFragmentationRule();
std::unique_ptr<FindingRule> makeStragglerRule();
std::unique_ptr<FindingRule> makeCommOverlapRule();

} // namespace placescope
