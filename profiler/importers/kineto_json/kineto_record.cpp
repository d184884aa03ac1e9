// SPDX-License-Identifier: MIT
#include "profiler/importers/kineto_json/kineto_record.h"

#include "profiler/importers/kineto_json/kineto_fast_parse.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <iterator>

namespace placescope {

using namespace simdjson;

namespace {

bool isValidUtf8(std::string_view text) { return simdjson::validate_utf8(text.data(), text.size()); }

// Reads an int64 argument; an integer beyond int64 is flagged (e.g. NCCL ids) and left NULL.
OptInt readInt(ondemand::value value, bool* outOfRange)
{
    int64_t number = 0;
    if (!value.get_int64().get(number))
        return number;
    ondemand::number_type type;
    if (!value.get_number_type().get(type)) {
        if (type == ondemand::number_type::unsigned_integer) {
            *outOfRange = true;
            return std::nullopt;
        }
        double real = 0;
        if (!value.get_double().get(real) && real > -9.2e18 && real < 9.2e18)
            return static_cast<int64_t>(real);
    } else {
        std::string_view raw = value.raw_json_token();
        if (!raw.empty() && (raw.front() == '-' || (raw.front() >= '0' && raw.front() <= '9')))
            *outOfRange = true; // a number simdjson cannot hold (beyond 64 bits)
    }
    return std::nullopt;
}

void readTriple(ondemand::value value, OptInt out[3])
{
    ondemand::array array;
    if (value.get_array().get(array))
        return;
    int i = 0;
    for (auto element : array) {
        int64_t number = 0;
        if (i < 3 && !element.get_int64().get(number))
            out[i] = number;
        ++i;
    }
}

std::string_view rawArray(ondemand::value value)
{
    ondemand::array array;
    std::string_view raw;
    if (value.get_array().get(array) || array.raw_json().get(raw))
        return {};
    return raw;
}

// Reads a string value into `out` (kept in the arena: simdjson's unescaped copy lasts only until the next
// parse). False when the value is not a string.
bool readString(ondemand::value value, BumpArena& arena, std::string_view& out)
{
    std::string_view text;
    if (value.get_string().get(text)) {
        out = {};
        return false;
    }
    out = arena.copy(text);
    return true;
}

} // namespace

// Replaces every byte of an invalid UTF-8 sequence with '?', so the rest of the record survives.
std::string repairKinetoUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    size_t i = 0;
    while (i < text.size()) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        size_t length = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (length > 0 && i + length <= text.size() && isValidUtf8(text.substr(i, length))) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out += '?';
            ++i;
        }
    }
    return out;
}

void KinetoRecordParser::parse(std::string_view json, bool suspect, BumpArena& arena, KinetoRecord& record)
{
    record = KinetoRecord();
    record.json = json;
    record.suspect = suspect;
    if (parseKinetoEventFast(json, record))
        return;
    parseGeneral(json, suspect, arena, record);
}

void KinetoRecordParser::parseGeneral(std::string_view json, bool suspect, BumpArena& arena, KinetoRecord& record)
{
    record = KinetoRecord();
    record.json = json;
    record.suspect = suspect;
    ondemand::document doc;
    ondemand::object object;
    // simdjson validates UTF-8 while indexing the record, so a record it accepts is valid and is not scanned a
    // second time (nearly all are). A rejected one may be rejected for another reason first (an unclosed
    // string): check it, and repair and retry it.
    error_code error = m_parser.iterate(json.data(), json.size(), json.size() + SIMDJSON_PADDING).get(doc);
    if (error && !isValidUtf8(json)) {
        record.invalidUtf8 = true;
        std::string cleaned = repairKinetoUtf8(json);
        size_t cleanedSize = cleaned.size();
        cleaned.append(SIMDJSON_PADDING, '\0');
        json = arena.copy(cleaned).substr(0, cleanedSize);
        error = m_parser.iterate(json.data(), json.size(), json.size() + SIMDJSON_PADDING).get(doc);
    }
    if (error || doc.get_object().get(object)) {
        record.badJson = json.substr(0, 200);
        return;
    }
    readFields(object, arena, record);
}

void KinetoRecordParser::readFields(ondemand::object& object, BumpArena& arena, KinetoRecord& record)
{
    for (auto field : object) {
        std::string_view key;
        ondemand::value v;
        if (field.unescaped_key().get(key) || field.value().get(v)) {
            record.badJson = "event field";
            return;
        }
        const char* failed = nullptr; // the key whose value has the wrong type
        if (key == "ph") {
            if (!readString(v, arena, record.ph))
                failed = "ph";
        } else if (key == "cat") {
            if (!readString(v, arena, record.cat))
                failed = "cat";
        } else if (key == "name") {
            bool isNull = false; // null: no name, as an empty one (the store names the kernel and counts it)
            if (!(!v.is_null().get(isNull) && isNull) && !readString(v, arena, record.name))
                failed = "name";
        } else if (key == "ts") {
            record.tsToken = v.raw_json_token();
        } else if (key == "dur") {
            record.durToken = v.raw_json_token();
        } else if (key == "pid") {
            record.pid = readId(v, false, arena, record);
            record.hasPid = true;
        } else if (key == "tid") {
            record.tid = readId(v, true, arena, record);
            record.hasTid = true;
        } else if (key == "id") {
            record.flowId = readInt(v, &record.flowIdOutOfRange);
            std::string_view text;
            if (!record.flowId && !v.get_string().get(text)) {
                record.flowIdText = arena.copy(text);
                record.hasFlowIdText = true;
                record.noteIdText(record.flowIdText);
            }
        } else if (key == "args") {
            if (!readArgs(v, arena, record))
                failed = "args";
        }
        if (failed) {
            record.badJson = failed;
            return;
        }
    }
}

RawId KinetoRecordParser::readId(ondemand::value value, bool isTid, BumpArena& arena, KinetoRecord& record)
{
    RawId id;
    int64_t number = 0;
    if (!value.get_int64().get(number)) {
        id.kind = RawId::Kind::Number;
        id.number = number;
        return id;
    }
    std::string_view text;
    if (!value.get_string().get(text))
        return kinetoTextId(arena.copy(text), isTid, record);
    double real = 0;
    if (!value.get_double().get(real) && real >= 0 && real < 9e15) {
        id.kind = RawId::Kind::Number;
        id.number = static_cast<int64_t>(real);
        return id;
    }
    id.kind = RawId::Kind::Unreadable;
    record.noteIdText("?");
    return id;
}

bool KinetoRecordParser::readArgs(ondemand::value value, BumpArena& arena, KinetoRecord& record)
{
    ondemand::object args;
    if (value.get_object().get(args)) {
        // args that are not an object are ignored, and counted unless null
        bool isNull = false;
        record.argsNotObject = !(!value.is_null().get(isNull) && isNull);
        return true;
    }
    bool outOfRange = false;
    for (auto field : args) {
        std::string_view key;
        ondemand::value v;
        if (field.unescaped_key().get(key) || field.value().get(v))
            return false;
        const KinetoArgField target = kinetoArgField(record.args, key);
        switch (target.kind) {
        case KinetoArgField::Kind::Int:
            *target.integer = readInt(v, &outOfRange);
            break;
        case KinetoArgField::Kind::Triple:
            readTriple(v, target.integer);
            break;
        case KinetoArgField::Kind::String:
            readString(v, arena, *target.text);
            break;
        case KinetoArgField::Kind::RawArray:
            *target.text = rawArray(v);
            break;
        case KinetoArgField::Kind::None:
            break;
        }
    }
    if (outOfRange)
        ++record.argsIdsOutOfRange;
    return true;
}

RawId kinetoTextId(std::string_view text, bool isTid, KinetoRecord& record)
{
    RawId id;
    id.text = text;
    if (isTid && text.rfind("stream ", 0) == 0) {
        size_t digits = text.find_first_of("0123456789");
        int64_t stream = 0;
        if (digits != std::string_view::npos
            && std::from_chars(text.data() + digits, text.data() + text.size(), stream).ec == std::errc()) {
            id.kind = RawId::Kind::Number;
            id.number = stream;
            return id;
        }
    }
    // A number written as a string ("25738": the 2021 legacy files quote the tids of their API calls and thread
    // names, while their flows give the same thread as the number 25738) is that number, so they name one thread.
    int64_t number = 0;
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos
        && std::from_chars(text.data(), text.data() + text.size(), number).ec == std::errc()) {
        id.kind = RawId::Kind::Number;
        id.number = number;
        return id;
    }
    id.kind = RawId::Kind::Text;
    record.noteIdText(text);
    return id;
}

void mergeKinetoArgs(KinetoArgs& into, const KinetoArgs& from)
{
    for (OptInt KinetoArgs::*field : kKinetoArgInts)
        if (from.*field)
            into.*field = from.*field;
    for (OptInt(KinetoArgs::*triple)[3] : kKinetoArgTriples)
        if ((from.*triple)[0])
            std::copy(std::begin(from.*triple), std::end(from.*triple), std::begin(into.*triple));
    for (std::string_view KinetoArgs::*text : kKinetoArgTexts)
        if (!(from.*text).empty())
            into.*text = from.*text;
}

OwnedKinetoArgs::OwnedKinetoArgs(const KinetoArgs& args)
    : m_args(args)
{
    for (size_t i = 0; i < m_texts.size(); ++i)
        m_texts[i] = std::string(args.*kKinetoArgTexts[i]);
}

const KinetoArgs& OwnedKinetoArgs::view()
{
    for (size_t i = 0; i < m_texts.size(); ++i)
        m_args.*kKinetoArgTexts[i] = m_texts[i];
    return m_args;
}

KinetoArgField kinetoArgField(KinetoArgs& a, std::string_view key)
{
    using Kind = KinetoArgField::Kind;
    auto integer = [](OptInt& field) { return KinetoArgField { Kind::Int, &field, nullptr }; };
    if (key == "External id" || key == "external id")
        return integer(a.externalId);
    if (key == "correlation")
        return integer(a.correlation);
    if (key == "device")
        return integer(a.device);
    if (key == "context")
        return integer(a.context);
    if (key == "stream")
        return integer(a.stream);
    if (key == "wait_on_stream")
        return integer(a.waitOnStream);
    if (key == "wait_on_cuda_event_record_corr_id")
        return integer(a.waitOnRecordCorrelation);
    if (key == "wait_on_cuda_event_id")
        return integer(a.waitOnEventId);
    if (key == "Sequence number")
        return integer(a.sequence);
    if (key == "Fwd thread id")
        return integer(a.fwdThread);
    if (key == "bytes" || key == "Bytes")
        return integer(a.bytes);
    if (key == "registers per thread")
        return integer(a.registers);
    if (key == "shared memory")
        return integer(a.sharedMemory);
    if (key == "Device Type")
        return integer(a.deviceType);
    if (key == "Device Id")
        return integer(a.deviceId);
    if (key == "Addr")
        return integer(a.address);
    if (key == "Total Allocated")
        return integer(a.totalAllocated);
    if (key == "Total Reserved")
        return integer(a.totalReserved);
    if (key == "grid")
        return { Kind::Triple, a.grid, nullptr };
    if (key == "block")
        return { Kind::Triple, a.block, nullptr };
    if (key == "cuda_sync_kind")
        return { Kind::String, nullptr, &a.syncKind };
    if (key == "Input Dims")
        return { Kind::RawArray, nullptr, &a.inputDims };
    if (key == "Input type")
        return { Kind::RawArray, nullptr, &a.inputTypes };
    if (key == "Input Strides")
        return { Kind::RawArray, nullptr, &a.inputStrides };
    if (key == "name")
        return { Kind::String, nullptr, &a.labelName };
    if (key == "Collective name")
        return { Kind::String, nullptr, &a.collectiveName };
    if (key == "In msg nelems")
        return integer(a.inMsgNelems);
    if (key == "Out msg nelems")
        return integer(a.outMsgNelems);
    if (key == "Group size")
        return integer(a.groupSize);
    if (key == "Seq") // PyTorch's per-process-group collective sequence number (record_param_comms)
        return integer(a.collectiveSeq);
    if (key == "dtype")
        return { Kind::String, nullptr, &a.dtype };
    if (key == "Process Group Name")
        return { Kind::String, nullptr, &a.processGroupName };
    if (key == "Process Group Description")
        return { Kind::String, nullptr, &a.processGroupDesc };
    if (key == "Process Group Ranks") // "[0, 1]" as text in the traces seen
        return { Kind::String, nullptr, &a.processGroupRanks };
    return {};
}

} // namespace placescope
