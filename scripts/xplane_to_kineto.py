#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the events of an XPlane file (*.xplane.pb) as a PyTorch profiler (Kineto) JSON trace, for the import
bench: the same kernels, copies, memsets, API calls, host ops, memory events and steps in each format, so that the two
importers are timed on the same rows, the same writer work and the same fixed costs (creating and committing the
file), and only the reading differs.

    python3 scripts/xplane_to_kineto.py IN.xplane.pb OUT.json.gz

Decoded independently of the C++ importer, with tests/data/xplane_ref.py (`protoc --decode`).
"""
import gzip
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'tests', 'data'))
import xplane_ref  # noqa: E402

one = xplane_ref.one
COPY_NAMES = (('H2D', 'Memcpy HtoD (Pageable -> Device)'), ('HtoD', 'Memcpy HtoD (Pageable -> Device)'),
              ('D2H', 'Memcpy DtoH (Device -> Pageable)'), ('DtoH', 'Memcpy DtoH (Device -> Pageable)'),
              ('D2D', 'Memcpy DtoD (Device -> Device)'), ('DtoD', 'Memcpy DtoD (Device -> Device)'),
              ('P2P', 'Memcpy PtoP (Device -> Device)'), ('PtoP', 'Memcpy PtoP (Device -> Device)'))


def us(ns):
    return round(ns / 1000.0, 3)


def stat_value(stat, names):
    if stat is None:
        return None
    for key in ('int64_value', 'uint64_value', 'double_value'):
        if key in stat:
            return int(one(stat, key))
    if 'ref_value' in stat:
        return names.get(one(stat, 'ref_value'), '')
    return one(stat, 'str_value', '')


def convert(path):
    space = xplane_ref.parse(xplane_ref.decode(path))
    events, devices = [], []
    steps_taken = False
    next_id = 0  # External ids: the event's index on its line, after the lines before
    for plane in space.get('planes', []):
        plane_name = one(plane, 'name', '')
        names, stat_names, stat = xplane_ref.plane_tables(plane)

        if plane_name.startswith('/device:GPU:'):
            device = int(plane_name[len('/device:GPU:'):])
            devices.append({'id': device, 'name': plane_name})
            for line in plane.get('lines', []):
                line_name = one(line, 'name', '')
                if xplane_ref.is_derived(one(line, 'id', 0)) or not line_name.startswith('Stream'):
                    if line_name == 'Steps' and not steps_taken and line.get('events'):
                        steps_taken = True
                        for number, e in enumerate(line['events']):
                            start, end = xplane_ref.event_span_ns(line, e)
                            events.append({'ph': 'X', 'cat': 'user_annotation', 'name': f'ProfilerStep#{number}',
                                           'pid': 1, 'tid': 0, 'ts': us(start), 'dur': us(end - start)})
                    continue
                match = re.search(r'#(\d+)', line_name)
                stream = int(match.group(1)) if match else one(line, 'id', 0)
                for e in line.get('events', []):
                    name = names.get(one(e, 'metadata_id'), '')
                    start, end = xplane_ref.event_span_ns(line, e)
                    args = {'device': device, 'stream': stream}
                    correlation = stat_value(stat(e, 'correlation_id'), stat_names)
                    if correlation is not None:
                        args['correlation'] = correlation
                    memcpy, memset = stat(e, 'memcpy_details'), stat(e, 'memset_details')
                    if memcpy or name.startswith('Memcpy'):
                        text = stat_value(memcpy, stat_names) or ''
                        size = re.search(r'(?:^| )size:(\d+)', text)
                        args['bytes'] = int(size.group(1)) if size else 0
                        copy_name = next((k for tag, k in COPY_NAMES if tag in name or tag in text), 'Memcpy')
                        events.append({'ph': 'X', 'cat': 'gpu_memcpy', 'name': copy_name, 'pid': device,
                                       'tid': stream, 'ts': us(start), 'dur': us(end - start), 'args': args})
                    elif memset or name.startswith('Memset'):
                        text = stat_value(memset, stat_names) or ''
                        size = re.search(r'num_bytes:(\d+)', text)
                        args['bytes'] = int(size.group(1)) if size else 0
                        events.append({'ph': 'X', 'cat': 'gpu_memset', 'name': 'Memset (Device)', 'pid': device,
                                       'tid': stream, 'ts': us(start), 'dur': us(end - start), 'args': args})
                    else:
                        details = stat_value(stat(e, 'kernel_details'), stat_names) or ''
                        fields = dict(re.findall(r'(\w+):([\d,]+)', details))
                        if 'grid' in fields and 'block' in fields:
                            args['grid'] = [int(v) for v in fields['grid'].split(',')]
                            args['block'] = [int(v) for v in fields['block'].split(',')]
                        if 'regs' in fields:
                            args['registers per thread'] = int(fields['regs'])
                        if 'shm' in fields:
                            args['shared memory'] = int(fields['shm'])
                        events.append({'ph': 'X', 'cat': 'kernel', 'name': name, 'pid': device, 'tid': stream,
                                       'ts': us(start), 'dur': us(end - start), 'args': args})
        elif plane_name == '/host:CPU':
            for tid, line in enumerate(plane.get('lines', []), start=1):
                if xplane_ref.is_derived(one(line, 'id', 0)):
                    continue
                line_events = line.get('events', [])
                ids = {}  # event index -> External id: TensorFlow ops, and the API calls made while one ran
                spans = []
                for i, e in enumerate(line_events):
                    kind = 'call' if stat(e, 'correlation_id') else \
                        'op' if xplane_ref.is_tf_op(names.get(one(e, 'metadata_id'), '')) else None
                    if kind:
                        start = one(e, 'offset_ps', 0)
                        spans.append((start, -(start + one(e, 'duration_ps', 0)), kind, i))
                open_ops = []  # (end_ps, index)
                for start, neg_end, kind, i in sorted(spans):
                    while open_ops and open_ops[-1][0] <= start:
                        open_ops.pop()
                    if kind == 'call' and open_ops:
                        ids[i] = open_ops[-1][1]
                    elif kind == 'op':
                        open_ops.append((-neg_end, i))
                for i, e in enumerate(line_events):
                    name = names.get(one(e, 'metadata_id'), '')
                    start, end = xplane_ref.event_span_ns(line, e)
                    correlation = stat_value(stat(e, 'correlation_id'), stat_names)
                    if correlation is not None:
                        cat = 'cuda_driver' if name.startswith('cu') and not name.startswith('cuda') else 'cuda_runtime'
                        args = {'correlation': correlation}
                        if i in ids:
                            args['External id'] = 1 + next_id + ids[i]
                        events.append({'ph': 'X', 'cat': cat, 'name': name, 'pid': 1, 'tid': tid, 'ts': us(start),
                                       'dur': us(end - start), 'args': args})
                    elif name in ('MemoryAllocation', 'MemoryDeallocation'):
                        size = stat_value(stat(e, 'allocation_bytes') or stat(e, 'bytes_allocated')
                                          or stat(e, 'requested_bytes'), stat_names) or 0
                        allocator = stat_value(stat(e, 'allocator_name'), stat_names) or ''
                        gpu = allocator.startswith('GPU_')
                        args = {'Bytes': size if name == 'MemoryAllocation' else -size,
                                'Device Type': 1 if gpu else 0,
                                'Device Id': int(re.match(r'GPU_(\d+)', allocator).group(1)) if gpu else -1}
                        address = stat_value(stat(e, 'addr'), stat_names)
                        if address is not None:
                            args['Addr'] = address
                        events.append({'ph': 'i', 's': 't', 'cat': 'cpu_instant_event', 'name': '[memory]', 'pid': 1,
                                       'tid': tid, 'ts': us(start), 'args': args})
                    else:
                        events.append({'ph': 'X', 'cat': 'cpu_op', 'name': name, 'pid': 1, 'tid': tid,
                                       'ts': us(start), 'dur': us(end - start), 'args': {'External id': 1 + next_id + i}})
                next_id += len(line_events)
    return {'schemaVersion': 1, 'deviceProperties': devices, 'traceEvents': events}


def main(source, target):
    trace = convert(source)
    with gzip.open(target, 'wt', compresslevel=6) as out:
        json.dump(trace, out, separators=(', ', ': '))
    print(f'{target}: {len(trace["traceEvents"])} events')


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: xplane_to_kineto.py IN.xplane.pb OUT.json.gz')
    main(sys.argv[1], sys.argv[2])
