// SPDX-License-Identifier: MIT
// EventBatchReader: reads a Kineto file (ByteSource: plain or gzip), cuts it with JsonEventSplitter and parses
// every event into a KinetoRecord, on a thread of its own, handing batches of records and the raw top-level
// members to the importing thread. So decompression, scanning and JSON parsing overlap with mapping and
// writing; a bounded queue keeps memory at a few batches however large the file is. Items arrive in file
// order; each event's text is followed by SIMDJSON_PADDING bytes of the batch buffer, so it is parsed in place.
// One consumer thread calls next() until it returns an empty batch or an error.
#pragma once

#include "profiler/base/status.h"
#include "profiler/importers/common/byte_source.h"
#include "profiler/importers/kineto_json/kineto_record.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace placescope {

struct EventBatch
{
    struct Item
    {
        uint32_t keyOffset = 0, keySize = 0; // top-level member name; empty for an event
        uint32_t textOffset = 0, textSize = 0;
        bool isEvent = true;
        bool suspect = false;
    };
    std::string text; // keys and values back to back, each value followed by padding
    std::vector<Item> items;
    std::vector<KinetoRecord> records; // records[i] is items[i] parsed, for the events
    BumpArena arena; // strings the records point to that are not in `text`
    uint64_t fileBytesRead = 0; // compressed bytes consumed when the batch was closed, for progress

    std::string_view key(const Item& item) const { return std::string_view(text).substr(item.keyOffset, item.keySize); }
    std::string_view value(const Item& item) const
    {
        return std::string_view(text).substr(item.textOffset, item.textSize);
    }
};

// What the reader found at the end of the input (valid once next() returned an empty batch).
struct EventStreamEnd
{
    bool sawTraceEvents = false;
    bool closed = false; // the top-level value was closed
    bool eventTooLarge = false; // one value was larger than the limit: reading stopped
    uint64_t contentBytes = 0; // uncompressed bytes read
    uint64_t events = 0;
    uint64_t trailingBytes = 0; // not blank, after the top-level value was closed
    std::string trailingHead; // the first of them
};

class EventBatchReader
{
public:
    // Starts reading `source` at once.
    explicit EventBatchReader(std::unique_ptr<ByteSource> source);
    ~EventBatchReader(); // stops the reading thread
    EventBatchReader(const EventBatchReader&) = delete;
    EventBatchReader& operator=(const EventBatchReader&) = delete;

    // The next batch in file order; an empty batch at the end of the input. An error when the input cannot be
    // read (corrupt or truncated gzip) or is not a JSON object or array.
    Result<std::unique_ptr<EventBatch>> next();
    // Gives a batch the consumer is done with back to the reader, which refills it instead of allocating (and
    // page-faulting in) a new buffer for every batch.
    void recycle(std::unique_ptr<EventBatch> batch);
    const EventStreamEnd& end() const { return m_end; }
    uint64_t fileBytes() const { return m_fileBytes; }

private:
    void readAll();
    void publish(std::unique_ptr<EventBatch> batch);
    std::unique_ptr<EventBatch> emptyBatch();

    std::unique_ptr<ByteSource> m_source;
    uint64_t m_fileBytes = 0;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<std::unique_ptr<EventBatch>> m_queue;
    std::vector<std::unique_ptr<EventBatch>> m_spare; // recycled batches, emptied, their buffers kept
    KinetoRecordParser m_parser; // used on the reading thread only
    bool m_finished = false; // the reading thread has published its last batch
    Status m_error;
    EventStreamEnd m_end;
    std::atomic<bool> m_stop = false;
    std::thread m_thread;
};

} // namespace placescope
