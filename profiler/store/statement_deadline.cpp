// SPDX-License-Identifier: MIT
#include "profiler/store/statement_deadline.h"

#include <sqlite3.h>

namespace placescope {
namespace {

// Virtual-machine steps between two looks at the clock: a few microseconds of work, so the limit is kept to
// within a millisecond while the clock costs nothing measurable.
constexpr int kStepsPerCheck = 10000;

} // namespace

StatementDeadline::StatementDeadline(sqlite3* db, std::chrono::milliseconds limit)
    : m_db(db)
    , m_deadline(std::chrono::steady_clock::now() + limit)
{
    if (db && limit.count() > 0) {
        sqlite3_progress_handler(db, kStepsPerCheck, &StatementDeadline::onProgress, this);
        m_installed = true;
    }
}

StatementDeadline::~StatementDeadline()
{
    if (m_installed)
        sqlite3_progress_handler(m_db, 0, nullptr, nullptr);
}

int StatementDeadline::onProgress(void* self)
{
    auto* deadline = static_cast<StatementDeadline*>(self);
    if (std::chrono::steady_clock::now() < deadline->m_deadline)
        return 0;
    deadline->m_expired = true;
    return 1;
}

} // namespace placescope
