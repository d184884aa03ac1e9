// SPDX-License-Identifier: MIT
// Progress reporting and cancellation for long operations (imports, exports, analyses).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

namespace placescope {

// Called with work done and total work (bytes, events...); total may be 0 when unknown.
// Implementations must be cheap: callers throttle to about every 0.1 % of the work.
using ProgressFn = std::function<void(uint64_t done, uint64_t total)>;

// Set from any thread to ask a running operation to stop; the operation returns an error Status.
class CancelToken
{
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled { false };
};

} // namespace placescope
