// SPDX-License-Identifier: MIT
#include "profiler/importers/kineto_json/event_batch_reader.h"

#include "profiler/importers/kineto_json/json_event_splitter.h"

#include <simdjson.h>

namespace placescope {
namespace {

constexpr size_t kChunkBytes = 128 << 10;
constexpr size_t kBatchBytes = 256 << 10; // a batch is closed once its text passes this
constexpr size_t kMaxQueuedBatches = 4; // the reader waits when the importer is this far behind
constexpr size_t kMaxEventBytes = 256u << 20; // one event larger than this is not a trace we can read

uint32_t appendPadded(std::string& text, std::string_view value)
{
    auto offset = static_cast<uint32_t>(text.size());
    text.append(value);
    text.append(simdjson::SIMDJSON_PADDING, '\0');
    return offset;
}

} // namespace

EventBatchReader::EventBatchReader(std::unique_ptr<ByteSource> source)
    : m_source(std::move(source))
    , m_fileBytes(m_source->fileBytes())
    , m_thread([this] { readAll(); })
{ }

EventBatchReader::~EventBatchReader()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

void EventBatchReader::publish(std::unique_ptr<EventBatch> batch)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return m_stop || m_queue.size() < kMaxQueuedBatches; });
    m_queue.push_back(std::move(batch));
    lock.unlock();
    m_changed.notify_all();
}

std::unique_ptr<EventBatch> EventBatchReader::emptyBatch()
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_spare.empty()) {
            std::unique_ptr<EventBatch> batch = std::move(m_spare.back());
            m_spare.pop_back();
            return batch;
        }
    }
    auto batch = std::make_unique<EventBatch>();
    batch->text.reserve(kBatchBytes + (16 << 10)); // a batch closes just past kBatchBytes
    return batch;
}

void EventBatchReader::recycle(std::unique_ptr<EventBatch> batch)
{
    batch->text.clear();
    batch->items.clear();
    batch->arena.reset();
    std::lock_guard lock(m_mutex);
    if (m_spare.size() < kMaxQueuedBatches)
        m_spare.push_back(std::move(batch));
}

void EventBatchReader::readAll()
{
    auto batch = emptyBatch();
    auto closeBatch = [&] {
        // The batch's text no longer grows, so the records' views into it stay valid.
        batch->records.resize(batch->items.size());
        for (size_t i = 0; i < batch->items.size(); ++i)
            if (batch->items[i].isEvent)
                m_parser.parse(batch->value(batch->items[i]), batch->items[i].suspect, batch->arena, batch->records[i]);
        batch->fileBytesRead = m_source->fileBytesRead();
        publish(std::move(batch));
        batch = emptyBatch();
    };
    JsonEventSplitter splitter(JsonEventSplitter::Handler { [&](std::string_view key, std::string_view raw) {
                                                               EventBatch::Item item;
                                                               item.isEvent = false;
                                                               item.keyOffset
                                                                   = static_cast<uint32_t>(batch->text.size());
                                                               item.keySize = static_cast<uint32_t>(key.size());
                                                               batch->text.append(key);
                                                               item.textSize = static_cast<uint32_t>(raw.size());
                                                               item.textOffset = appendPadded(batch->text, raw);
                                                               batch->items.push_back(item);
                                                               if (batch->text.size() >= kBatchBytes)
                                                                   closeBatch();
                                                           },
        [&](std::string_view event, bool suspect) {
            EventBatch::Item item;
            item.suspect = suspect;
            item.textSize = static_cast<uint32_t>(event.size());
            item.textOffset = appendPadded(batch->text, event);
            batch->items.push_back(item);
            if (batch->text.size() >= kBatchBytes)
                closeBatch();
        } });
    std::vector<char> chunk(kChunkBytes);
    Status error;
    EventStreamEnd end;
    while (!m_stop) {
        auto n = m_source->read(chunk.data(), chunk.size());
        if (!n.isOk()) {
            error = n.status();
            break;
        }
        if (*n == 0)
            break;
        if (!splitter.feed(std::string_view(chunk.data(), *n))) {
            // A damaged byte inside a gzip file decompresses to garbage before the member's CRC can say so: read
            // on, so a corrupt download is called corrupt (as `gzip -t` does), not "not a trace".
            Status rest = m_source->checkRestOfStream();
            error = rest.isOk() ? Status::error("not a PyTorch profiler trace (the file is not a JSON object or array)")
                                : rest;
            break;
        }
        if (splitter.bufferedBytes() > kMaxEventBytes) {
            end.eventTooLarge = true;
            break;
        }
    }
    end.sawTraceEvents = splitter.sawTraceEvents();
    end.closed = splitter.finish();
    end.contentBytes = m_source->contentBytesRead();
    end.events = splitter.eventCount();
    end.trailingBytes = splitter.trailingBytes();
    end.trailingHead = splitter.trailingHead();
    if (error.isOk() && !batch->items.empty())
        closeBatch();
    std::lock_guard lock(m_mutex);
    m_end = end;
    m_error = error;
    m_finished = true;
    m_changed.notify_all();
}

Result<std::unique_ptr<EventBatch>> EventBatchReader::next()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [this] { return !m_queue.empty() || m_finished; });
    if (!m_queue.empty()) {
        std::unique_ptr<EventBatch> batch = std::move(m_queue.front());
        m_queue.pop_front();
        lock.unlock();
        m_changed.notify_all(); // a queue slot is free
        return batch;
    }
    if (!m_error.isOk())
        return m_error;
    return std::make_unique<EventBatch>(); // the end
}

} // namespace placescope
