// SPDX-License-Identifier: MIT
// Status and Result<T>: how fallible calls in the core libraries report errors. Exceptions never cross a
// library border; entry points (main, job lambdas, CUPTI callbacks) catch and convert to Status.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace placescope {

// A success or a one-line, user-readable error message.
class [[nodiscard]] Status
{
public:
    Status() = default;
    static Status ok() { return Status(); }
    static Status error(std::string message) { return Status(std::move(message)); }

    bool isOk() const { return !m_message.has_value(); }
    explicit operator bool() const { return isOk(); }
    const std::string& message() const
    {
        static const std::string kEmpty;
        return m_message ? *m_message : kEmpty;
    }

private:
    explicit Status(std::string message)
        : m_message(std::move(message))
    { }
    std::optional<std::string> m_message;
};

// A value or the Status that explains why there is none.
template <typename T> class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_value(std::move(value))
    { }
    Result(Status status)
        : m_status(std::move(status))
    {
        assert(!m_status.isOk());
    }

    bool isOk() const { return m_value.has_value(); }
    explicit operator bool() const { return isOk(); }
    const Status& status() const { return m_status; }
    T& value() & { return *m_value; }
    const T& value() const& { return *m_value; }
    T&& value() && { return std::move(*m_value); }
    T* operator->() { return &*m_value; }
    const T* operator->() const { return &*m_value; }
    T& operator*() { return *m_value; }

private:
    std::optional<T> m_value;
    Status m_status;
};

} // namespace placescope

#define PLACESCOPE_CONCAT_INNER(a, b) a##b
#define PLACESCOPE_CONCAT(a, b) PLACESCOPE_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function when `expr` fails.
#define PLACESCOPE_RETURN_IF_ERROR(expr)                                                                               \
    do {                                                                                                               \
        ::placescope::Status placescope_status_ = (expr);                                                              \
        if (!placescope_status_.isOk())                                                                                \
            return placescope_status_;                                                                                 \
    } while (0)

// `PLACESCOPE_ASSIGN_OR_RETURN(auto x, f())`: declares x from f()'s value or returns f()'s Status.
#define PLACESCOPE_ASSIGN_OR_RETURN(lhs, expr)                                                                         \
    auto PLACESCOPE_CONCAT(placescope_result_, __LINE__) = (expr);                                                     \
    if (!PLACESCOPE_CONCAT(placescope_result_, __LINE__).isOk())                                                       \
        return PLACESCOPE_CONCAT(placescope_result_, __LINE__).status();                                               \
    lhs = std::move(PLACESCOPE_CONCAT(placescope_result_, __LINE__)).value()
