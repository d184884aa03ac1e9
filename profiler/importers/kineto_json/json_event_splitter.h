// SPDX-License-Identifier: MIT
// JsonEventSplitter: cuts a Chrome/Kineto trace, fed in arbitrary chunks, into its top-level members and the
// individual objects of its "traceEvents" array, without building a document. The importer parses each event
// on its own (simdjson), so memory stays at one chunk plus one event however large the file is, and one bad
// record (invalid UTF-8, an unescaped quote) costs that record, not the import.
// Also accepts the bare-array form of the Chrome format ([{...},{...}]). Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace placescope {

class JsonEventSplitter
{
public:
    struct Handler
    {
        // A member of the top-level object other than traceEvents, with its raw JSON value text.
        std::function<void(std::string_view key, std::string_view rawValue)> topLevel;
        // One element of traceEvents (raw text; an object unless the file is malformed). `suspect` is set when
        // the scanner had to resynchronise inside it (a raw newline in a string: an unescaped quote).
        std::function<void(std::string_view rawEvent, bool suspect)> event;
    };

    explicit JsonEventSplitter(Handler handler)
        : m_handler(std::move(handler))
    { }

    // Feeds the next bytes. `data` must stay valid only during the call. Returns false once the input cannot
    // be a trace (first non-blank byte is not '{' or '[').
    bool feed(std::string_view data);
    // Called at the end of the input. True when the top-level value was closed.
    bool finish() const { return m_state == State::Done; }
    bool sawTraceEvents() const { return m_sawTraceEvents; }
    // Bytes other than blanks after the top-level value was closed (a second document appended, a zero-filled
    // tail), which nothing reads; and the first few of them, for a message.
    uint64_t trailingBytes() const { return m_trailingBytes; }
    const std::string& trailingHead() const { return m_trailingHead; }
    uint64_t eventCount() const { return m_events; }
    // Bytes buffered for the element being scanned (the largest element bounds memory).
    size_t bufferedBytes() const { return m_pending.size(); }

private:
    enum class State
    {
        Start,
        ExpectKey,
        InKey,
        ExpectColon,
        ExpectValue,
        InValue,
        InEvents,
        AfterValue,
        Done,
        Bad
    };

    void scan(const char* data, size_t size);
    // From data[i], inside a captured value at depth > 0 and not after a backslash: tracks strings and brackets
    // 64 bytes at a time. Returns where the byte-by-byte scan takes over: the bracket closing the value, the
    // start of a block it cannot settle (a backslash, a raw newline in a string), or the last partial block.
    size_t skipBlocks(const char* data, size_t i, size_t size);
    void emitValue(std::string_view text); // clears m_pending after the handler ran

    Handler m_handler;
    State m_state = State::Start;
    bool m_bareArray = false;
    bool m_inString = false;
    bool m_escape = false;
    bool m_suspect = false;
    bool m_sawTraceEvents = false;
    bool m_capturing = false; // inside an element/value whose text goes to m_pending
    int m_depth = 0; // container depth inside the current captured value (or event)
    uint64_t m_events = 0;
    uint64_t m_trailingBytes = 0;
    std::string m_trailingHead;
    std::string m_key;
    std::string m_pending;
};

} // namespace placescope
