// SPDX-License-Identifier: MIT
// parseKinetoEventFast must fill a record exactly as the simdjson path (KinetoRecordParser::parseGeneral) does
// whenever it accepts an event, and must give up on what it does not read itself. Checked on every event of the
// real traces in tests/data (cut out as the importer cuts them) and on hand-made events at the edges: escapes,
// non-ASCII bytes, number forms, ids as text, repeated keys, malformed JSON.
#include "profiler/importers/common/byte_source.h"
#include "profiler/importers/kineto_json/json_event_splitter.h"
#include "profiler/importers/kineto_json/kineto_event_mapper.h"
#include "profiler/importers/kineto_json/kineto_fast_parse.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace placescope {
namespace {

// simdjson's raw tokens keep the blanks after them; ours end with the number. Both read the same.
std::string_view trimmed(std::string_view token)
{
    while (
        !token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    return token;
}

void expectSameId(const RawId& fast, const RawId& general, const std::string& what)
{
    EXPECT_EQ(static_cast<int>(fast.kind), static_cast<int>(general.kind)) << what;
    if (fast.kind == RawId::Kind::Number) {
        EXPECT_EQ(fast.number, general.number) << what;
    }
    EXPECT_EQ(fast.text, general.text) << what;
}

void expectSameRecord(const KinetoRecord& fast, const KinetoRecord& general, const std::string& event)
{
    EXPECT_EQ(fast.badJson, general.badJson) << event;
    EXPECT_EQ(fast.invalidUtf8, general.invalidUtf8) << event;
    EXPECT_EQ(fast.argsIdsOutOfRange, general.argsIdsOutOfRange) << event;
    EXPECT_EQ(fast.ph, general.ph) << event;
    EXPECT_EQ(fast.cat, general.cat) << event;
    EXPECT_EQ(fast.name, general.name) << event;
    EXPECT_EQ(trimmed(fast.tsToken), trimmed(general.tsToken)) << event;
    EXPECT_EQ(trimmed(fast.durToken), trimmed(general.durToken)) << event;
    EXPECT_EQ(parseMicrosecondsToNs(fast.tsToken), parseMicrosecondsToNs(general.tsToken)) << event;
    EXPECT_EQ(fast.hasPid, general.hasPid) << event;
    EXPECT_EQ(fast.hasTid, general.hasTid) << event;
    expectSameId(fast.pid, general.pid, "pid of " + event);
    expectSameId(fast.tid, general.tid, "tid of " + event);
    EXPECT_EQ(fast.flowId, general.flowId) << event;
    EXPECT_EQ(fast.flowIdText, general.flowIdText) << event;
    EXPECT_EQ(fast.hasFlowIdText, general.hasFlowIdText) << event;
    EXPECT_EQ(fast.flowIdOutOfRange, general.flowIdOutOfRange) << event;
    ASSERT_EQ(fast.idTextCount, general.idTextCount) << event;
    for (int i = 0; i < fast.idTextCount; ++i)
        EXPECT_EQ(fast.idTexts[static_cast<size_t>(i)], general.idTexts[static_cast<size_t>(i)]) << event;
    const KinetoArgs& a = fast.args;
    const KinetoArgs& b = general.args;
    const std::vector<std::pair<OptInt, OptInt>> ints = {
        { a.externalId, b.externalId },
        { a.correlation, b.correlation },
        { a.device, b.device },
        { a.context, b.context },
        { a.stream, b.stream },
        { a.sequence, b.sequence },
        { a.fwdThread, b.fwdThread },
        { a.bytes, b.bytes },
        { a.registers, b.registers },
        { a.sharedMemory, b.sharedMemory },
        { a.deviceType, b.deviceType },
        { a.deviceId, b.deviceId },
        { a.address, b.address },
        { a.totalAllocated, b.totalAllocated },
        { a.totalReserved, b.totalReserved },
        { a.grid[0], b.grid[0] },
        { a.grid[1], b.grid[1] },
        { a.grid[2], b.grid[2] },
        { a.block[0], b.block[0] },
        { a.block[1], b.block[1] },
        { a.block[2], b.block[2] },
    };
    for (size_t i = 0; i < ints.size(); ++i)
        EXPECT_EQ(ints[i].first, ints[i].second) << "int arg " << i << " of " << event;
    EXPECT_EQ(a.syncKind, b.syncKind) << event;
    EXPECT_EQ(a.inputDims, b.inputDims) << event;
    EXPECT_EQ(a.inputTypes, b.inputTypes) << event;
    EXPECT_EQ(a.inputStrides, b.inputStrides) << event;
    EXPECT_EQ(a.labelName, b.labelName) << event;
}

// Parses `event` both ways (each from a padded copy, as the batch reader hands events over); true when the fast
// path took it, after checking that it read it as simdjson does.
bool compareOn(KinetoRecordParser& parser, const std::string& event)
{
    std::string padded = event + std::string(simdjson::SIMDJSON_PADDING, '\0');
    std::string_view json(padded.data(), event.size());
    BumpArena arena;
    KinetoRecord fast;
    fast.json = json;
    const bool took = parseKinetoEventFast(json, fast);
    KinetoRecord general;
    parser.parseGeneral(json, false, arena, general);
    if (took)
        expectSameRecord(fast, general, event);
    return took;
}

TEST(KinetoFastParseTest, ReadsEveryEventOfTheRealTracesAsSimdjsonDoes)
{
    KinetoRecordParser parser;
    int traces = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(PLACESCOPE_DATA_DIR) + "/traces")) {
        const std::string path = entry.path().string();
        if (path.size() < 8 || path.substr(path.size() - 8) != ".json.gz")
            continue;
        auto source = ByteSource::open(path);
        ASSERT_TRUE(source.isOk()) << source.status().message();
        int events = 0, taken = 0;
        JsonEventSplitter splitter(JsonEventSplitter::Handler { [](std::string_view, std::string_view) {},
            [&](std::string_view event, bool) {
                ++events;
                taken += compareOn(parser, std::string(event));
            } });
        std::vector<char> chunk(1 << 16);
        for (;;) {
            auto read = (*source)->read(chunk.data(), chunk.size());
            ASSERT_TRUE(read.isOk()) << read.status().message();
            if (*read == 0)
                break;
            splitter.feed(std::string_view(chunk.data(), *read));
        }
        if (events == 0)
            continue; // not a Kineto trace (the PyTorch execution trace)
        ++traces;
        // The point of the fast path: it takes nearly all of what PyTorch writes.
        EXPECT_GT(taken, events * 9 / 10) << path << ": " << taken << " of " << events;
        if (HasFailure())
            return;
    }
    EXPECT_GE(traces, 5);
}

TEST(KinetoFastParseTest, TakesTheUsualShapesAndReadsThemAsSimdjsonDoes)
{
    KinetoRecordParser parser;
    const std::vector<std::string> taken = {
        R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1669783687464181, "dur": 45,
            "args": {"External id": 3073, "correlation": 12, "device": 0, "context": 1, "stream": 7,
                     "registers per thread": 32, "shared memory": 0, "grid": [80, 1, 1], "block": [256, 1, 1]}})",
        "{\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 2,\n    \"ts\": 1.5,"
        " \"dur\": 2.25e1,\n    \"args\": {\n      \"Input Dims\": [[1, 2], []], \"Input type\": [\"float\", \"\"],"
        "\n      \"Input Strides\": [[2, 1], []]\n    }\n  }",
        R"({"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 5, "s": "t",
            "args": {"Device Type": 1, "Device Id": 0, "Addr": 94205448192, "Bytes": -512,
                     "Total Allocated": 0, "Total Reserved": 2097152}})",
        R"({"ph": "s", "id": 42, "pid": 1, "tid": 1, "ts": 3, "cat": "ac2g", "name": "ac2g"})",
        R"({"ph": "f", "id": "flow-a", "pid": "GPU 0", "tid": "stream 7", "ts": 4, "cat": "ac2g", "bp": "e"})",
        R"({"ph": "X", "pid": "host", "tid": "stream x", "ts": 0, "id": 5, "id": "then text"})",
        R"({"ph": "M", "name": "thread_name", "pid": 1, "tid": 9, "args": {"name": "main thread"}})",
        R"({"ph": "X", "cat": "cuda_sync", "name": "s", "pid": 1, "tid": 1, "ts": 1, "dur": 0,
            "args": {"cuda_sync_kind": "Event Sync", "External id": 1, "External id": 2, "grid": [3]}})",
        R"({"ph": "X", "name": "a", "name": "b", "pid": -3, "tid": 9223372036854775807, "ts": 0,
            "args": {"unknown": {"nested": [1, {"x": null}], "t": true, "f": false}, "Sequence number": 0}})",
        R"({"ph": "X", "args": "not an object", "pid": 1, "ts": 1})",
        R"({"ph": "X", "pid": "host", "pid": 5, "tid": "stream 3", "tid": "main", "ts": 1})",
        "{\"ph\": \"X\", \"args\": [], \"pid\": 1, \"ts\": 1, \"extra\": \"DEL \x7f needs no escape\"}",
        "{}",
    };
    for (const std::string& event : taken)
        EXPECT_TRUE(compareOn(parser, event)) << event;
}

TEST(KinetoFastParseTest, LeavesTheRestToSimdjson)
{
    KinetoRecordParser parser;
    const std::vector<std::string> leftToSimdjson = {
        R"({"ph": "X", "name": "say \"hi\"", "pid": 1, "ts": 1})", // an escape
        "{\"ph\": \"X\", \"name\": \"caf\xC3\xA9\", \"pid\": 1, \"ts\": 1}", // non-ASCII
        "{\"ph\": \"X\", \"name\": \"bad \xFF\", \"pid\": 1, \"ts\": 1}", // invalid UTF-8
        R"({"ph": "X", "pid": 1.0, "ts": 1})", // a float pid
        R"({"ph": "X", "pid": -0, "ts": 1})", // "-0"
        R"({"ph": "X", "pid": 9223372036854775808, "ts": 1})", // beyond int64
        R"({"ph": "X", "pid": 1, "ts": "12"})", // a string timestamp
        R"({"ph": 5, "pid": 1, "ts": 1})", // ph not a string
        R"({"ph": "X", "pid": 1, "ts": 1, "args": {"device": 1.5}})", // a float where an int is read
        R"({"ph": "X", "pid": 1, "ts": 1, "args": {"grid": "80,1,1"}})", // grid not an array
        R"({"ph": "X", "pid": 1, "ts": 01})", // a leading zero
        R"({"ph": "X", "pid": 1, "ts": 1,})", // a trailing comma
        R"({"ph": "X" "pid": 1})", // a missing comma
        R"({"ph": "X", "pid": 1} trailing)", // text after the object
        R"({"ph": "X", "pid": 1, "x": tru})", // a broken literal
        R"([1, 2])", // not an object
        "{\"ph\": \"X\", \"pid\": 1,\f\"ts\": 1}", // a form feed is not JSON space
        "",
    };
    for (const std::string& event : leftToSimdjson)
        EXPECT_FALSE(compareOn(parser, event)) << event;
}

} // namespace
} // namespace placescope
