// SPDX-License-Identifier: MIT
// The one way the UI runs work off its thread (Hotspot's JobTracker is the model): each start() bumps a
// generation counter and hands the job a fresh cancel token; the previous job's token is cancelled and its
// result, when it arrives, is dropped. Results reach `done` on the context object's thread, never after the
// context or the tracker is gone.
#pragma once

#include "profiler/base/progress.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrent>

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace placescope::ui {

class JobTracker
{
public:
    // `context` receives the results (on its thread) and owns the in-flight watchers; the tracker is meant to be
    // one of its members.
    explicit JobTracker(QObject* context)
        : m_context(context)
    { }
    ~JobTracker() { discard(); }
    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    // Runs `work(const CancelToken&)` on the thread pool and `done(result)` on the context's thread, unless
    // another start() or discard() came meanwhile; then `stale(result)` runs instead (for what is worth keeping
    // from a superseded job). Returns the job's generation.
    template <typename Work, typename Done, typename Stale = std::nullptr_t>
    uint64_t start(Work work, Done done, Stale stale = nullptr)
    {
        using Result = std::invoke_result_t<const Work&, const CancelToken&>;
        if (m_state->token)
            m_state->token->cancel();
        const uint64_t generation = ++m_state->generation;
        auto token = std::make_shared<CancelToken>();
        m_state->token = token;
        auto* watcher = new QFutureWatcher<Result>(m_context);
        QObject::connect(watcher, &QFutureWatcherBase::finished, m_context,
            [watcher, generation, weak = std::weak_ptr<State>(m_state), done = std::move(done),
                stale = std::move(stale)]() mutable {
                watcher->deleteLater();
                Result result = watcher->future().takeResult();
                const auto state = weak.lock();
                if (!state)
                    return; // the tracker is gone: nobody is waiting
                if (generation != state->generation) {
                    if constexpr (!std::is_same_v<Stale, std::nullptr_t>)
                        stale(std::move(result));
                    return;
                }
                state->token.reset();
                done(std::move(result));
            });
        watcher->setFuture(QtConcurrent::run([work = std::move(work), token] { return work(*token); }));
        return generation;
    }

    // Asks the current job to stop; its result still arrives (to report "cancelled" as the job words it).
    void cancel()
    {
        if (m_state->token)
            m_state->token->cancel();
    }
    // Cancels the current job and drops its result: what it was computing is no longer wanted.
    void discard()
    {
        cancel();
        m_state->token.reset();
        ++m_state->generation;
    }
    // A job was started and neither delivered nor discarded.
    bool isRunning() const { return m_state->token != nullptr; }
    uint64_t generation() const { return m_state->generation; }

private:
    // Shared with the result callbacks through weak pointers, so a result that arrives after the tracker died
    // is dropped rather than touching freed memory.
    struct State
    {
        uint64_t generation = 0;
        std::shared_ptr<CancelToken> token; // the current job's; null when none runs
    };
    QObject* m_context;
    std::shared_ptr<State> m_state = std::make_shared<State>();
};

} // namespace placescope::ui
