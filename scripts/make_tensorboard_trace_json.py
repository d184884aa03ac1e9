#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the TensorBoard trace-viewer JSON (<host>.trace.json.gz) of an XPlane capture, as TensorBoard's profile
plugin writes it beside the .xplane.pb of the same capture (ExportToTensorBoard: ConvertXSpaceToTraceContainer, then
TraceContainerToJson, gzipped). No real trace.json.gz is among ../shared/traces, so the test data is made from the
real XPlane file's events by this script; the XPlane is read with Debian's `protoc --decode` (tests/data/xplane_ref.py),
not with our C++.

    python3 scripts/make_tensorboard_trace_json.py tests/data/traces/tf_bert_v100_step_excerpt.xplane.pb \
        tests/data/traces/tf_bert_v100_step_excerpt.trace.json.gz

The dialect reproduced, from the converters in tensorflow/tsl (xla/tsl/profiler/convert/xplane_to_trace_events.cc and
trace_events_to_json.cc; xla/tsl/profiler/utils/xplane_schema.cc for what is internal):
  - one object: {"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[...,{}]}, compact, the
    metadata events first (sorted by pid, then tid), then the events, host plane first, and a last empty {};
  - a process per plane: the host plane (/host:CPU) is pid 1 (kHostThreadsDeviceId), each /device:GPU:N plane pid
    1000 + the plane's id (kFirstDeviceId); {"ph":"M","pid":P,"name":"process_name","args":{"name":PLANE}} and
    {"ph":"M","pid":P,"name":"process_sort_index","args":{"sort_index":P}};
  - a thread per line: tid = the line's display_id, else its id, as uint32 (derived lines keep their 0xdeadbeef.. ids);
    {"ph":"M","pid":P,"tid":T,"name":"thread_name","args":{"name":DISPLAY_NAME or NAME}} ("Stream #14(MemcpyH2D)",
    the host thread's name) and thread_sort_index (the host's lines numbered 1.. in order, else the tid); lines named
    "Async XLA Ops" are left out;
  - each event {"ph":"X","pid":P,"tid":T,"ts":US,"dur":US,"name":NAME,"args":{...}}: ts and dur in microseconds
    printed with max precision (%.17g) from picoseconds (line timestamp_ns * 1000 + offset_ps; duration at least 1 ps);
    the name is the metadata's display_name when it has one (then args.long_name holds the name), else its name; a
    step_name stat renames the event;
  - args: the event metadata's stats, then the event's, every value a string (numbers printed in decimal, a ref_value
    resolved to the stat metadata's name), sorted by key; internal stats left out (kernel_details, _pt, _p, _ct, _c,
    _r, flops, bytes_accessed, program_id, symbol_id): the JSON has no kernel launch shapes;
  - internal events left out: MemoryAllocation/MemoryDeallocation (so no memory events) and tf.data's
    producer/consumer markers; at most 1,000,000 events (GetTraceViewerMaxEvents; not reached here).
"""
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'data'))
import xplane_ref  # noqa: E402  (protoc --decode and its text format, parsed)

HOST_DEVICE_ID, FIRST_DEVICE_ID = 1, 1000
INTERNAL_EVENTS = {'MemoryAllocation', 'MemoryDeallocation', 'PrefetchProduce', 'PrefetchConsume',
                   'ParallelInterleaveProduce', 'ParallelInterleaveConsume', 'ParallelInterleaveInitializedInput',
                   'ParallelMapProduce', 'ParallelMapConsume', 'MapAndBatchProduce', 'MapAndBatchConsume',
                   'ParseExampleProduce', 'ParseExampleConsume'}
INTERNAL_STATS = {'kernel_details', '_pt', '_p', '_ct', '_c', '_r', 'flops', 'bytes_accessed', 'program_id',
                  'symbol_id'}
MAX_EVENTS = 1000000

one = xplane_ref.one


def micros(ps):
    return '%.17g' % (ps / 1e6)


def stat_text(stat, stat_names):
    for key in ('str_value', 'int64_value', 'uint64_value'):
        if key in stat:
            return str(one(stat, key))
    if 'double_value' in stat:
        return '%g' % one(stat, 'double_value')
    if 'ref_value' in stat:
        return stat_names.get(one(stat, 'ref_value'), '')
    return None  # bytes_value or no value: not shown (VALUE_NOT_SET)


def convert_plane(device_id, plane, metadata, events):
    lines = [l for l in plane.get('lines', [])]
    stat_names = {one(s['value'][0], 'id'): one(s['value'][0], 'name', '') for s in plane.get('stat_metadata', [])}
    event_meta = {one(e['value'][0], 'id'): e['value'][0] for e in plane.get('event_metadata', [])}
    resources = {}
    for ordinal, line in enumerate(lines, 1):
        rid = (one(line, 'display_id', 0) or one(line, 'id', 0)) & 0xffffffff
        name = one(line, 'display_name', '') or one(line, 'name', '')
        resources[rid] = (name, ordinal if device_id == HOST_DEVICE_ID else rid)
    name = one(plane, 'name', '')
    metadata.append((device_id, -1, {'ph': 'M', 'pid': device_id, 'name': 'process_name', 'args': {'name': name}}))
    metadata.append((device_id, -1, {'ph': 'M', 'pid': device_id, 'name': 'process_sort_index',
                                     'args': {'sort_index': device_id}}))
    for rid, (rname, sort_index) in resources.items():
        if rname:
            metadata.append((device_id, rid, {'ph': 'M', 'pid': device_id, 'tid': rid, 'name': 'thread_name',
                                              'args': {'name': rname}}))
        metadata.append((device_id, rid, {'ph': 'M', 'pid': device_id, 'tid': rid, 'name': 'thread_sort_index',
                                          'args': {'sort_index': sort_index}}))
    for line in lines:
        lname = one(line, 'display_name', '') or one(line, 'name', '')
        if lname == 'Async XLA Ops':
            continue
        rid = (one(line, 'display_id', 0) or one(line, 'id', 0)) & 0xffffffff
        base_ps = one(line, 'timestamp_ns', 0) * 1000
        for e in line.get('events', []):
            meta = event_meta.get(one(e, 'metadata_id'), {})
            ename = one(meta, 'name', '')
            if ename in INTERNAL_EVENTS:
                continue
            args = {}
            display = one(meta, 'display_name', '')
            if display:
                args['long_name'] = ename
            for stat in meta.get('stats', []) + e.get('stats', []):
                sname = stat_names.get(one(stat, 'metadata_id'), '')
                text = stat_text(stat, stat_names)
                if text is None or sname in INTERNAL_STATS:
                    continue
                if sname == 'step_name':
                    display = text
                args[sname] = text
            event = {'ph': 'X', 'pid': device_id, 'tid': rid,
                     'ts': micros(base_ps + one(e, 'offset_ps', 0)),
                     'dur': micros(max(one(e, 'duration_ps', 0), 1)), 'name': display or ename}
            if args:
                event['args'] = dict(sorted(args.items()))
            events.append(event)


def dump(event):
    # TraceContainerToJson writes ts and dur as bare numbers, strings everywhere else.
    text = json.dumps(event, ensure_ascii=False, separators=(',', ':'))
    for key in ('ts', 'dur'):
        if key in event:
            text = text.replace('"%s":"%s"' % (key, event[key]), '"%s":%s' % (key, event[key]), 1)
    return text


def main(source, out):
    space = xplane_ref.parse(xplane_ref.decode(source))
    planes = space.get('planes', [])
    metadata, events = [], []
    host = [p for p in planes if one(p, 'name', '') == '/host:CPU']
    if host:
        convert_plane(HOST_DEVICE_ID, host[0], metadata, events)
    for plane in planes:
        if one(plane, 'name', '').startswith('/device:GPU:'):
            convert_plane(FIRST_DEVICE_ID + one(plane, 'id', 0), plane, metadata, events)
    events = events[:MAX_EVENTS]
    metadata.sort(key=lambda m: (m[0], m[1]))
    body = ''.join(dump(m[2]) + ',' for m in metadata) + ''.join(dump(e) + ',' for e in events)
    text = '{"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[' + body + '{}]}'
    with open(out, 'wb') as f:
        # mtime 0: the same input gives the same bytes.
        with gzip.GzipFile(fileobj=f, mode='wb', mtime=0, filename='') as z:
            z.write(text.encode('utf-8'))
    print(f'{out}: {len(events)} events, {len(metadata)} metadata events')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
