// SPDX-License-Identifier: MIT
#include "profiler/importers/kineto_json/json_event_splitter.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace placescope {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Index of the first byte in data[i, size) that matters inside a captured value outside strings ('"', '{',
// '}', '[', ']', and ',' when `commas`), or size. Kineto indents every event line, so blanks and numbers are
// most of those bytes. Commas only end a value at depth 0: inside an event (one per field) they are skipped.
size_t findStructural(const char* data, size_t i, size_t size, bool commas)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i comma = commas ? _mm_set1_epi8(',') : quote;
    const __m128i lowerCase = _mm_set1_epi8(0x20); // '[' | 0x20 == '{', ']' | 0x20 == '}'
    const __m128i openBrace = _mm_set1_epi8('{');
    const __m128i closeBrace = _mm_set1_epi8('}');
    for (; i + 16 <= size; i += 16) {
        __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
        __m128i folded = _mm_or_si128(bytes, lowerCase);
        __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, comma)),
            _mm_or_si128(_mm_cmpeq_epi8(folded, openBrace), _mm_cmpeq_epi8(folded, closeBrace)));
        if (int mask = _mm_movemask_epi8(hits))
            return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
#endif
    for (; i < size; ++i) {
        char c = data[i];
        if (c == '"' || (c == ',' && commas) || c == '{' || c == '}' || c == '[' || c == ']')
            return i;
    }
    return size;
}

// Index of the first '"', '\\' or raw newline in data[i, size), or size: the only bytes that matter inside a
// string. String bodies (kernel names, shapes) are most of a trace, so they are skipped 16 bytes at a time.
size_t findStringStop(const char* data, size_t i, size_t size)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i newline = _mm_set1_epi8('\n');
    for (; i + 16 <= size; i += 16) {
        __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
        __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)),
            _mm_cmpeq_epi8(bytes, newline));
        if (int mask = _mm_movemask_epi8(hits))
            return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
#endif
    while (i < size && data[i] != '"' && data[i] != '\\' && data[i] != '\n')
        ++i;
    return i;
}

#if defined(__SSE2__)
// One bit per byte of a 64-byte block for each byte class the block scan needs.
struct BlockMasks
{
    uint64_t quote = 0, backslash = 0, newline = 0, open = 0, close = 0;
};

BlockMasks classifyBlock(const char* block)
{
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i newline = _mm_set1_epi8('\n');
    const __m128i lowerCase = _mm_set1_epi8(0x20); // '[' | 0x20 == '{', ']' | 0x20 == '}'
    const __m128i openBrace = _mm_set1_epi8('{');
    const __m128i closeBrace = _mm_set1_epi8('}');
    BlockMasks masks;
    for (int part = 0; part < 4; ++part) {
        __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * part));
        __m128i folded = _mm_or_si128(bytes, lowerCase);
        auto bits = [&](__m128i hits) {
            return static_cast<uint64_t>(static_cast<uint16_t>(_mm_movemask_epi8(hits))) << (16 * part);
        };
        masks.quote |= bits(_mm_cmpeq_epi8(bytes, quote));
        masks.backslash |= bits(_mm_cmpeq_epi8(bytes, backslash));
        masks.newline |= bits(_mm_cmpeq_epi8(bytes, newline));
        masks.open |= bits(_mm_cmpeq_epi8(folded, openBrace));
        masks.close |= bits(_mm_cmpeq_epi8(folded, closeBrace));
    }
    return masks;
}

// Bit k set when an odd number of bits at or below k are set in `bits`: with quote bits, the bytes from an
// opening quote up to (not including) its closing quote.
uint64_t prefixXor(uint64_t bits)
{
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    return bits;
}
#endif

} // namespace

bool JsonEventSplitter::feed(std::string_view data)
{
    if (m_state != State::Bad)
        scan(data.data(), data.size());
    return m_state != State::Bad;
}

size_t JsonEventSplitter::skipBlocks(const char* data, size_t i, size_t size)
{
#if defined(__SSE2__)
    for (; i + 64 <= size; i += 64) {
        BlockMasks masks = classifyBlock(data + i);
        uint64_t inString = prefixXor(masks.quote) ^ (m_inString ? ~uint64_t(0) : 0);
        if (masks.backslash || (masks.newline & inString))
            return i; // an escape or a broken string: the byte-by-byte scan settles this block
        for (uint64_t brackets = (masks.open | masks.close) & ~inString; brackets; brackets &= brackets - 1) {
            int bit = __builtin_ctzll(brackets);
            if ((masks.open >> bit) & 1) {
                ++m_depth;
            } else if (m_depth == 1) {
                m_inString = false;
                return i + static_cast<size_t>(bit); // the bracket that closes the value: the caller ends it
            } else {
                --m_depth;
            }
        }
        m_inString = (inString >> 63) & 1;
    }
#else
    (void)data;
    (void)size;
#endif
    return i;
}

void JsonEventSplitter::emitValue(std::string_view text)
{
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    if (m_state == State::InEvents) {
        ++m_events;
        if (m_handler.event)
            m_handler.event(text, m_suspect);
    } else if (m_handler.topLevel) {
        m_handler.topLevel(m_key, text);
    }
    m_pending.clear();
    m_capturing = false;
    m_suspect = false;
    m_inString = false;
    m_escape = false;
}

void JsonEventSplitter::scan(const char* data, size_t size)
{
    size_t captureStart = 0;
    auto flushCapture = [&](size_t end) { m_pending.append(data + captureStart, end - captureStart); };
    // Ends the captured value at data[end]: straight from the input when it lies within this chunk (most do),
    // else from m_pending.
    auto emitCaptured = [&](size_t end) {
        if (m_pending.empty()) {
            emitValue(std::string_view(data + captureStart, end - captureStart));
            return;
        }
        flushCapture(end);
        emitValue(m_pending);
    };
    size_t bytewiseUntil = 0; // skipBlocks left the bytes before this to the byte-by-byte scan
    for (size_t i = 0; i < size; ++i) {
        char c = data[i];
        if (m_capturing) {
            if (m_depth > 0 && !m_escape && i >= bytewiseUntil) {
                // Inside an event only brackets outside strings matter: find them 64 bytes at a time.
                size_t next = skipBlocks(data, i, size);
                if (next == i)
                    bytewiseUntil = i + 64;
                i = next;
                if (i == size)
                    break;
                c = data[i];
            }
            if (m_inString) {
                // Fast path through string bodies: only three bytes matter there.
                if (!m_escape)
                    i = findStringStop(data, i, size);
                if (i == size)
                    break;
                c = data[i];
                if (m_escape)
                    m_escape = false;
                else if (c == '\\')
                    m_escape = true;
                else if (c == '"')
                    m_inString = false;
                else { // a raw newline cannot be inside a JSON string: an unescaped quote came before it
                    m_inString = false;
                    m_suspect = true;
                    if (m_state == State::InEvents) {
                        // Kineto writes one event per line: the broken event ends here, and the next line
                        // starts clean instead of being swallowed by a bracket count that is off.
                        emitCaptured(i);
                    }
                }
                continue;
            }
            i = findStructural(data, i, size, m_depth == 0);
            if (i == size)
                break;
            c = data[i];
            if (c == '"') {
                m_inString = true;
            } else if (c == '{' || c == '[') {
                ++m_depth;
            } else if (c == '}' || c == ']') {
                if (m_depth == 0) { // closes the enclosing container: a scalar value ends here
                    emitCaptured(i);
                    --i; // the enclosing state sees the bracket again
                    continue;
                }
                if (--m_depth == 0 && m_state == State::InEvents) {
                    emitCaptured(i + 1);
                }
            } else if (c == ',' && m_depth == 0) {
                emitCaptured(i);
                if (m_state == State::InValue)
                    m_state = State::ExpectKey;
            }
            continue;
        }
        switch (m_state) {
        case State::Start:
            if (isBlank(c))
                break;
            if (c == '{')
                m_state = State::ExpectKey;
            else if (c == '[') {
                m_state = State::InEvents;
                m_bareArray = true;
                m_sawTraceEvents = true;
            } else if (static_cast<unsigned char>(c) == 0xEF && i == 0) {
                break; // UTF-8 byte order mark
            } else if ((static_cast<unsigned char>(c) == 0xBB || static_cast<unsigned char>(c) == 0xBF) && i < 3) {
                break;
            } else
                m_state = State::Bad;
            break;
        case State::ExpectKey:
            if (isBlank(c) || c == ',')
                break;
            if (c == '"') {
                m_key.clear();
                m_state = State::InKey;
            } else if (c == '}')
                m_state = State::Done;
            else
                m_state = State::Bad;
            break;
        case State::InKey:
            if (m_escape) {
                m_escape = false;
                m_key += c;
            } else if (c == '\\')
                m_escape = true;
            else if (c == '"')
                m_state = State::ExpectColon;
            else if (m_key.size() < 256)
                m_key += c;
            break;
        case State::ExpectColon:
            if (c == ':')
                m_state = State::ExpectValue;
            else if (!isBlank(c))
                m_state = State::Bad;
            break;
        case State::ExpectValue:
            if (isBlank(c))
                break;
            if (c == '[' && m_key == "traceEvents") {
                m_state = State::InEvents;
                m_sawTraceEvents = true;
                break;
            }
            m_state = State::InValue;
            m_capturing = true;
            m_depth = 0;
            captureStart = i;
            --i; // scan the first byte of the value in capture mode
            break;
        case State::InEvents:
            if (isBlank(c) || c == ',')
                break;
            if (c == ']') {
                m_state = m_bareArray ? State::Done : State::AfterValue;
                break;
            }
            if (c == '}') { // a stray closer left by a broken event: a bad record, not the start of one
                m_suspect = true;
                emitValue(std::string_view(data + i, 1));
                break;
            }
            m_capturing = true;
            m_depth = 0;
            captureStart = i;
            --i;
            break;
        case State::InValue: // only reached right after a value ended at the closing '}' of the object
            m_state = c == '}' ? State::Done : State::Bad;
            break;
        case State::AfterValue:
            if (c == ',')
                m_state = State::ExpectKey;
            else if (c == '}')
                m_state = State::Done;
            else if (!isBlank(c))
                m_state = State::Bad;
            break;
        case State::Done:
            if (!isBlank(c)) {
                ++m_trailingBytes;
                if (m_trailingHead.size() < 40) // for a one-line message: control bytes (NUL) shown as '?'
                    m_trailingHead += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
            }
            break;
        case State::Bad:
            break;
        }
        if (m_state == State::Bad)
            return;
    }
    if (m_capturing) {
        flushCapture(size);
        captureStart = 0;
    }
}

} // namespace placescope
