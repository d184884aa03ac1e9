// SPDX-License-Identifier: MIT
#include "profiler/importers/kineto_json/kineto_fast_parse.h"

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace placescope {
namespace {

// Strict JSON, one token at a time. Every method returns false on what it does not accept, and the caller
// gives up on the event.
class Scanner
{
public:
    explicit Scanner(std::string_view text)
        : m_at(text.data())
        , m_end(text.data() + text.size())
    { }

    void skipSpace()
    {
        while (m_at < m_end && (*m_at == ' ' || *m_at == '\n' || *m_at == '\r' || *m_at == '\t'))
            ++m_at;
    }
    // Skips white space, then takes `c` if it is next.
    bool take(char c)
    {
        skipSpace();
        if (m_at < m_end && *m_at == c) {
            ++m_at;
            return true;
        }
        return false;
    }
    char peek()
    {
        skipSpace();
        return m_at < m_end ? *m_at : '\0';
    }
    bool atEnd()
    {
        skipSpace();
        return m_at == m_end;
    }
    // A string of ASCII without escapes or control bytes; `out` is its content.
    bool string(std::string_view& out)
    {
        if (!take('"'))
            return false;
        const char* start = m_at;
        m_at = stringEnd(m_at);
        if (m_at >= m_end || *m_at != '"')
            return false; // an escape, a byte outside printable ASCII, or no closing quote
        out = std::string_view(start, static_cast<size_t>(m_at - start));
        ++m_at;
        return true;
    }

    // A JSON number's text; `integer` when it has neither fraction nor exponent.
    bool number(std::string_view& out, bool& integer)
    {
        skipSpace();
        const char* start = m_at;
        if (m_at < m_end && *m_at == '-')
            ++m_at;
        if (m_at < m_end && *m_at == '0')
            ++m_at;
        else if (!digits())
            return false;
        integer = true;
        if (m_at < m_end && *m_at == '.') {
            ++m_at;
            integer = false;
            if (!digits())
                return false;
        }
        if (m_at < m_end && (*m_at == 'e' || *m_at == 'E')) {
            ++m_at;
            integer = false;
            if (m_at < m_end && (*m_at == '+' || *m_at == '-'))
                ++m_at;
            if (!digits())
                return false;
        }
        out = std::string_view(start, static_cast<size_t>(m_at - start));
        return true;
    }

    // An integer that fits int64, as simdjson's get_int64 reads it ("-0" is left to simdjson, which may read it
    // as a float).
    bool int64(int64_t& value)
    {
        skipSpace();
        const bool negative = m_at < m_end && *m_at == '-';
        const char* first = m_at + (negative ? 1 : 0);
        const char* at = first;
        uint64_t magnitude = 0;
        while (at < m_end && *at >= '0' && *at <= '9' && at - first < 20) {
            magnitude = magnitude * 10 + static_cast<uint64_t>(*at - '0');
            ++at;
        }
        const size_t digits = static_cast<size_t>(at - first);
        if (digits == 0 || digits > 19 || (*first == '0' && (digits > 1 || negative)))
            return false; // none, too many, a leading zero, or "-0"
        if (at < m_end && (*at == '.' || *at == 'e' || *at == 'E'))
            return false; // not an integer
        const uint64_t limit = negative ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
        if (magnitude > limit)
            return false;
        value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
        m_at = at;
        return true;
    }

    // The literal null.
    bool null() { return peek() == 'n' && literal("null"); }

    // Any value, checked but not kept.
    bool skipValue(int depth = 0)
    {
        if (depth > 32)
            return false;
        switch (peek()) {
        case '"': {
            std::string_view ignored;
            return string(ignored);
        }
        case '{': {
            ++m_at;
            if (take('}'))
                return true;
            do {
                std::string_view key;
                if (!string(key) || !take(':') || !skipValue(depth + 1))
                    return false;
            } while (take(','));
            return take('}');
        }
        case '[': {
            ++m_at;
            if (take(']'))
                return true;
            do {
                if (!skipValue(depth + 1))
                    return false;
            } while (take(','));
            return take(']');
        }
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default: {
            std::string_view ignored;
            bool integer = false;
            return number(ignored, integer);
        }
        }
    }

    // An array, as simdjson's array::raw_json() gives it: from '[' up to the next token, so with the white space
    // after ']'.
    bool rawArray(std::string_view& out)
    {
        if (peek() != '[')
            return false;
        const char* start = m_at;
        if (!skipValue())
            return false;
        skipSpace();
        out = std::string_view(start, static_cast<size_t>(m_at - start));
        return true;
    }

private:
    // The first '"', '\\', control byte or byte >= 0x80 at or after `at` (any of them ends the fast path's
    // strings): 16 bytes at a time where SSE2 is there, which may read up to 15 bytes past the text's end.
    const char* stringEnd(const char* at) const
    {
#if defined(__SSE2__)
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i backslash = _mm_set1_epi8('\\');
        const __m128i space = _mm_set1_epi8(0x20);
        while (at < m_end) {
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
            // As signed bytes, both control bytes and bytes >= 0x80 are below 0x20.
            const __m128i stop
                = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)),
                    _mm_cmplt_epi8(bytes, space));
            if (const int mask = _mm_movemask_epi8(stop))
                return at + __builtin_ctz(static_cast<unsigned>(mask));
            at += 16;
        }
        return m_end;
#else
        while (at < m_end) {
            const unsigned char c = static_cast<unsigned char>(*at);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80)
                return at;
            ++at;
        }
        return m_end;
#endif
    }

    bool digits()
    {
        const char* start = m_at;
        while (m_at < m_end && *m_at >= '0' && *m_at <= '9')
            ++m_at;
        return m_at > start;
    }
    bool literal(std::string_view word)
    {
        if (static_cast<size_t>(m_end - m_at) < word.size() || std::string_view(m_at, word.size()) != word)
            return false;
        m_at += word.size();
        return true;
    }

    const char* m_at;
    const char* m_end;
};

// A pid or tid: an integer, or a string (kinetoTextId).
bool readId(Scanner& in, bool isTid, KinetoRecord& record, RawId& id)
{
    id = RawId(); // a repeated key replaces the whole id, as in the simdjson path
    if (in.peek() != '"') {
        id.kind = RawId::Kind::Number;
        return in.int64(id.number);
    }
    std::string_view text;
    if (!in.string(text))
        return false;
    id = kinetoTextId(text, isTid, record);
    return true;
}

bool readInt(Scanner& in, OptInt& out)
{
    int64_t value = 0;
    if (!in.int64(value))
        return false;
    out = value;
    return true;
}

// grid/block: up to three integers.
bool readTriple(Scanner& in, OptInt out[3])
{
    if (!in.take('['))
        return false;
    if (in.take(']'))
        return true;
    int i = 0;
    do {
        int64_t value = 0;
        if (!in.int64(value))
            return false;
        if (i < 3)
            out[i] = value;
        ++i;
    } while (in.take(','));
    return in.take(']');
}

// The args the mapper uses (kinetoArgField), read as KinetoRecordParser::readArgs reads them; the others are
// skipped.
bool readArgs(Scanner& in, KinetoRecord& record)
{
    KinetoArgs& a = record.args;
    if (in.peek() != '{') {
        record.argsNotObject = in.peek() != 'n'; // ignored, and counted unless null
        return in.skipValue();
    }
    in.take('{');
    if (in.take('}'))
        return true;
    do {
        std::string_view key;
        if (!in.string(key) || !in.take(':'))
            return false;
        const KinetoArgField target = kinetoArgField(a, key);
        bool read = false;
        switch (target.kind) {
        case KinetoArgField::Kind::Int:
            read = readInt(in, *target.integer);
            break;
        case KinetoArgField::Kind::Triple:
            read = readTriple(in, target.integer);
            break;
        case KinetoArgField::Kind::String:
            read = in.string(*target.text);
            break;
        case KinetoArgField::Kind::RawArray:
            read = in.rawArray(*target.text);
            break;
        case KinetoArgField::Kind::None:
            read = in.skipValue();
            break;
        }
        if (!read)
            return false;
    } while (in.take(','));
    return in.take('}');
}

// A top-level field, read as KinetoRecordParser::readFields reads it.
bool readField(Scanner& in, std::string_view key, KinetoRecord& record)
{
    if (key == "ph")
        return in.string(record.ph);
    if (key == "cat")
        return in.string(record.cat);
    if (key == "name") // null: no name, as an empty one (the store names the kernel and counts it)
        return in.null() || in.string(record.name);
    if (key == "ts" || key == "dur") {
        bool integer = false;
        return in.number(key == "ts" ? record.tsToken : record.durToken, integer);
    }
    if (key == "pid") {
        record.hasPid = true;
        return readId(in, false, record, record.pid);
    }
    if (key == "tid") {
        record.hasTid = true;
        return readId(in, true, record, record.tid);
    }
    if (key == "id") {
        if (in.peek() != '"') {
            int64_t value = 0;
            if (!in.int64(value))
                return false;
            record.flowId = value;
            return true;
        }
        record.flowId.reset();
        if (!in.string(record.flowIdText))
            return false;
        record.hasFlowIdText = true;
        record.noteIdText(record.flowIdText);
        return true;
    }
    if (key == "args")
        return readArgs(in, record);
    return in.skipValue();
}

} // namespace

bool parseKinetoEventFast(std::string_view json, KinetoRecord& record)
{
    Scanner in(json);
    if (!in.take('{'))
        return false;
    if (!in.take('}')) {
        do {
            std::string_view key;
            if (!in.string(key) || !in.take(':') || !readField(in, key, record))
                return false;
        } while (in.take(','));
        if (!in.take('}'))
            return false;
    }
    return in.atEnd();
}

} // namespace placescope
