// SPDX-License-Identifier: MIT
// Writes a synthetic PyTorch profiler (Kineto) trace of a given number of events, gzipped, streaming: the
// generator's memory does not grow with the event count. The mix follows a training step: per framework op
// one cudaLaunchKernel and one kernel with its flow pair, plus a copy and a memset now and then.
#pragma once

#include <cstdint>
#include <string>

namespace placescope::bench {

struct SyntheticTrace
{
    uint64_t events = 0; // trace events written (flow halves included)
    uint64_t uncompressedBytes = 0; // JSON text size
};

// Returns false (and leaves no file) when the file cannot be written.
bool writeSyntheticKinetoTrace(const std::string& path, uint64_t targetEvents, SyntheticTrace* written);

} // namespace placescope::bench
