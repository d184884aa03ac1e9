// SPDX-License-Identifier: MIT
// KinetoRecord: one Kineto event's fields as read from its JSON, before any mapping. The batch reader's thread
// parses every event of a batch into records (KinetoRecordParser: parseKinetoEventFast for the usual events,
// simdjson on-demand for the rest), so the importing thread only maps them to rows (KinetoEventMapper): JSON
// parsing is most of an import's work and the reader's thread has the time. A record's text views point into its
// batch (the event's own JSON, or the batch's BumpArena for strings simdjson had to unescape) and live as long as
// the batch. Problems found while parsing are carried in the record and counted by the mapper, in file order.
#pragma once

#include "profiler/base/bump_arena.h"
#include "profiler/model/trace_events.h"

#include <simdjson.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace placescope {

// Replaces each byte of an invalid UTF-8 sequence with '?' so the rest of a record survives.
std::string repairKinetoUtf8(std::string_view text);

// A pid, tid or flow id as written.
struct RawId
{
    enum class Kind
    {
        Number,
        Text,
        Unreadable
    };
    Kind kind = Kind::Unreadable;
    int64_t number = 0;
    std::string_view text;
};

struct KinetoArgs
{
    OptInt externalId, correlation, device, context, stream, sequence, fwdThread, bytes;
    OptInt registers, sharedMemory, deviceType, deviceId, address, totalAllocated, totalReserved;
    OptInt waitOnStream, waitOnRecordCorrelation, waitOnEventId; // cuda_sync: the event a wait is on
    OptInt grid[3], block[3];
    std::string_view syncKind, inputDims, inputTypes, inputStrides, labelName;
    // NCCL collective metadata (record_param_comms ops, NCCL kernels), kept for collective reports.
    OptInt inMsgNelems, outMsgNelems, groupSize,
        collectiveSeq; // collectiveSeq: "Seq", the collective's number in its group
    std::string_view collectiveName, dtype, processGroupName, processGroupDesc, processGroupRanks;
};

// Every field of KinetoArgs, by kind: the one list for copying and merging whole args (add a new field here too).
inline constexpr OptInt KinetoArgs::*kKinetoArgInts[] = {
    &KinetoArgs::externalId,
    &KinetoArgs::correlation,
    &KinetoArgs::device,
    &KinetoArgs::context,
    &KinetoArgs::stream,
    &KinetoArgs::sequence,
    &KinetoArgs::fwdThread,
    &KinetoArgs::bytes,
    &KinetoArgs::registers,
    &KinetoArgs::sharedMemory,
    &KinetoArgs::deviceType,
    &KinetoArgs::deviceId,
    &KinetoArgs::address,
    &KinetoArgs::totalAllocated,
    &KinetoArgs::totalReserved,
    &KinetoArgs::inMsgNelems,
    &KinetoArgs::outMsgNelems,
    &KinetoArgs::groupSize,
    &KinetoArgs::collectiveSeq,
    &KinetoArgs::waitOnStream,
    &KinetoArgs::waitOnRecordCorrelation,
    &KinetoArgs::waitOnEventId,
};
inline constexpr OptInt (KinetoArgs::*kKinetoArgTriples[])[3] = { &KinetoArgs::grid, &KinetoArgs::block };
inline constexpr std::string_view KinetoArgs::*kKinetoArgTexts[] = {
    &KinetoArgs::syncKind,
    &KinetoArgs::inputDims,
    &KinetoArgs::inputTypes,
    &KinetoArgs::inputStrides,
    &KinetoArgs::labelName,
    &KinetoArgs::collectiveName,
    &KinetoArgs::dtype,
    &KinetoArgs::processGroupName,
    &KinetoArgs::processGroupDesc,
    &KinetoArgs::processGroupRanks,
};

// Merges an E event's args into its B's, as the Chrome trace format says (and Perfetto and the trace viewer do):
// an arg the E gives replaces the B's, the others stay. `into`'s text then points at `from`'s too.
void mergeKinetoArgs(KinetoArgs& into, const KinetoArgs& from);

// Args whose text outlives the record they came from (a B event waiting for its E, past its batch). The copies
// move with the object, so view() points the text at them after the last move.
class OwnedKinetoArgs
{
public:
    OwnedKinetoArgs() = default;
    explicit OwnedKinetoArgs(const KinetoArgs& args);
    const KinetoArgs& view();

private:
    KinetoArgs m_args;
    std::array<std::string, std::size(kKinetoArgTexts)> m_texts;
};

// Where an args key goes in KinetoArgs, and how its value is read: the one list of the args the mapper uses, for
// both parsers (parseKinetoEventFast and the simdjson path). Kind::None: a key the mapper does not use.
struct KinetoArgField
{
    enum class Kind
    {
        None,
        Int,
        Triple,
        String,
        RawArray
    };
    Kind kind = Kind::None;
    OptInt* integer = nullptr; // Int; Triple: the first of three
    std::string_view* text = nullptr; // String, RawArray
};
KinetoArgField kinetoArgField(KinetoArgs& args, std::string_view key);

struct KinetoRecord
{
    std::string_view json; // as read (the example for kineto.resynchronized and kineto.invalid_utf8)
    bool suspect = false; // the splitter resynchronised inside it
    bool invalidUtf8 = false; // repaired before parsing
    std::string_view badJson; // non-empty: the record is not mapped; the example for kineto.bad_json_record
    int argsIdsOutOfRange = 0; // ids in args beyond int64 (kineto.id_out_of_range, once per args object)
    bool argsNotObject = false; // "args" given as a string, number or array (kineto.args_not_object)
    std::string_view ph, cat, name, tsToken, durToken;
    bool hasPid = false, hasTid = false;
    RawId pid, tid; // a tid "stream 7" (legacy GPU lanes) is read as the number 7
    OptInt flowId;
    std::string_view flowIdText; // a flow id given as a string (used when flowId is empty)
    bool hasFlowIdText = false;
    bool flowIdOutOfRange = false;
    // The string ids (pid, tid, flow id; "?" for an unreadable pid or tid) in the order they were read, so the
    // mapper numbers them in file order (an event with more than four, repeating keys, keeps its first four).
    std::array<std::string_view, 4> idTexts;
    int idTextCount = 0;
    void noteIdText(std::string_view text)
    {
        if (idTextCount < static_cast<int>(idTexts.size()))
            idTexts[static_cast<size_t>(idTextCount++)] = text;
    }
    KinetoArgs args;
};

// A pid or tid given as text, for both parsers: a tid "stream 7" (legacy 2021 files name GPU lanes so) is the
// number 7; any other text is a Text id, noted in record.idTexts.
RawId kinetoTextId(std::string_view text, bool isTid, KinetoRecord& record);

class KinetoRecordParser
{
public:
    // `paddedJson` is followed in memory by at least SIMDJSON_PADDING readable bytes (the batch reader pads every
    // event), so it is parsed in place. Strings that must outlive the parse go to `arena`. The usual events are
    // read by parseKinetoEventFast; the rest by parseGeneral.
    void parse(std::string_view paddedJson, bool suspect, BumpArena& arena, KinetoRecord& record);
    // simdjson on-demand: any event, malformed ones included (what they lack is noted in the record).
    void parseGeneral(std::string_view paddedJson, bool suspect, BumpArena& arena, KinetoRecord& record);

private:
    void readFields(simdjson::ondemand::object& object, BumpArena& arena, KinetoRecord& record);
    bool readArgs(simdjson::ondemand::value value, BumpArena& arena, KinetoRecord& record);
    RawId readId(simdjson::ondemand::value value, bool isTid, BumpArena& arena, KinetoRecord& record);

    simdjson::ondemand::parser m_parser;
};

} // namespace placescope
