// SPDX-License-Identifier: MIT
// JobTracker: the newest job's result arrives, a superseded one's is dropped (or handed to `stale`), its cancel
// token is set, and nothing arrives once the tracker is gone. Jobs block on latches the test opens, so the order
// of events is the test's, not the scheduler's.
#include "ui/jobs/job_tracker.h"
#include "ui/jobs/wait_until.h"

#include <QtTest/QtTest>

#include <atomic>
#include <future>
#include <memory>

using namespace placescope;
using namespace placescope::ui;

namespace {

// A job that waits until the test lets it finish, then returns `value` (or -1 when it saw its token cancelled).
struct Gate
{
    std::promise<void> open;
    std::shared_future<void> opened = open.get_future().share();
    std::atomic<bool> sawCancel { false };
};

auto gatedJob(std::shared_ptr<Gate> gate, int value)
{
    return [gate, value](const CancelToken& cancel) {
        gate->opened.wait();
        gate->sawCancel = cancel.isCancelled();
        return cancel.isCancelled() ? -1 : value;
    };
}

} // namespace

class JobTrackerTest : public QObject
{
    Q_OBJECT

private slots:
    void theNewestResultArrivesAndTheSupersededOneIsDropped()
    {
        QObject context;
        JobTracker tracker(&context);
        auto first = std::make_shared<Gate>();
        auto second = std::make_shared<Gate>();
        std::vector<int> delivered, dropped;
        tracker.start(
            gatedJob(first, 1), [&](int v) { delivered.push_back(v); }, [&](int v) { dropped.push_back(v); });
        QVERIFY(tracker.isRunning());
        const uint64_t newest = tracker.start(
            gatedJob(second, 2), [&](int v) { delivered.push_back(v); }, [&](int v) { dropped.push_back(v); });
        QCOMPARE(newest, tracker.generation());
        first->open.set_value(); // the superseded job finishes first: its token was cancelled by the second start
        QVERIFY(waitUntil([&] { return !dropped.empty(); }, 30000));
        QVERIFY(first->sawCancel);
        QCOMPARE(dropped, std::vector<int>({ -1 }));
        QVERIFY(delivered.empty());
        QVERIFY(tracker.isRunning()); // the second still runs
        second->open.set_value();
        QVERIFY(waitUntil([&] { return !tracker.isRunning(); }, 30000));
        QVERIFY(!second->sawCancel);
        QCOMPARE(delivered, std::vector<int>({ 2 }));
    }

    void cancelAsksTheJobToStopAndStillDeliversItsAnswer()
    {
        QObject context;
        JobTracker tracker(&context);
        auto gate = std::make_shared<Gate>();
        int delivered = 0;
        tracker.start(gatedJob(gate, 7), [&](int v) { delivered = v; });
        tracker.cancel();
        gate->open.set_value();
        QVERIFY(waitUntil([&] { return !tracker.isRunning(); }, 30000));
        QCOMPARE(delivered, -1); // the job's own "cancelled" answer reaches the caller
    }

    void discardDropsTheResult()
    {
        QObject context;
        JobTracker tracker(&context);
        auto gate = std::make_shared<Gate>();
        bool delivered = false, staleSeen = false;
        tracker.start(
            gatedJob(gate, 3), [&](int) { delivered = true; }, [&](int) { staleSeen = true; });
        tracker.discard();
        QVERIFY(!tracker.isRunning());
        gate->open.set_value();
        QVERIFY(waitUntil([&] { return staleSeen; }, 30000));
        QVERIFY(gate->sawCancel);
        QVERIFY(!delivered);
    }

    void nothingArrivesAfterTheTrackerIsGone()
    {
        QObject context;
        auto gate = std::make_shared<Gate>();
        bool delivered = false;
        QFutureWatcherBase* watcher = nullptr;
        {
            JobTracker tracker(&context);
            tracker.start(gatedJob(gate, 5), [&](int) { delivered = true; });
            watcher = context.findChild<QFutureWatcherBase*>();
            QVERIFY(watcher);
        }
        QSignalSpy finished(watcher, &QFutureWatcherBase::finished);
        gate->open.set_value();
        QVERIFY(waitUntil([&] { return !finished.isEmpty(); }, 30000));
        QVERIFY(gate->sawCancel); // the tracker's destructor cancelled it
        QVERIFY(!delivered);
    }

    void waitUntilReportsATimeout()
    {
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!waitUntil([] { return false; }, 100));
        QVERIFY(clock.elapsed() >= 100);
        QVERIFY(waitUntil([] { return true; }, 0));
    }
};

QTEST_MAIN(JobTrackerTest)
#include "job_tracker_test.moc"
