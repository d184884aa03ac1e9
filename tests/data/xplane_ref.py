#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reader of an XPlane file (*.xplane.pb), for checking the importer's figures.

Decodes the file with Debian's `protoc --decode` (the text format, not our C++), parses that text here, and sums
what the importer should store: kernels, copies and memsets of the GPU planes' stream lines (derived lines with
sentinel ids left out), host API calls (events with a correlation_id), memory events, and the first Steps line; and
TensorFlow's op placement (xprof's overview): TF ops ("name:Type" host events) that made API calls on their line while
they ran whose correlation ids name GPU work are device ops (their GPU work's time summed), the others host ops (their
own time summed).

    python3 tests/data/xplane_ref.py tests/data/traces/jax08_gemm_mi300x.xplane.pb
"""
import os
import re
import subprocess
import sys

PROTO = os.path.join(os.path.dirname(__file__), '..', '..', 'profiler', 'importers', 'xplane', 'xplane.proto')
ROOT = os.path.join(os.path.dirname(__file__), '..', '..')
DERIVED_MIN = 0xdeadbeef


def decode(path):
    with open(path, 'rb') as f:
        out = subprocess.run(['protoc', '-I', ROOT, '--decode=tensorflow.profiler.XSpace',
                              'profiler/importers/xplane/xplane.proto'], stdin=f, capture_output=True,
                             check=True, cwd=ROOT)
    return out.stdout.decode('utf-8', 'replace')


def parse(text):
    """Text format -> nested dicts; repeated fields become lists."""
    root = {}
    stack = [root]
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.endswith('{'):
            child = {}
            stack[-1].setdefault(line[:-1].strip(), []).append(child)
            stack.append(child)
        elif line == '}':
            stack.pop()
        else:
            key, value = line.split(':', 1)
            value = value.strip()
            if value.startswith('"'):
                value = bytes(value[1:-1], 'utf-8').decode('unicode_escape').encode('latin-1').decode('utf-8', 'replace')
            else:
                value = float(value) if re.match(r'^-?[0-9.]+e', value) or '.' in value else int(value)
            stack[-1].setdefault(key, []).append(value)
    return root


def one(d, key, default=None):
    v = d.get(key)
    return v[0] if v else default


def is_derived(line_id):
    as_int32 = DERIVED_MIN - (1 << 32)
    return DERIVED_MIN <= line_id < DERIVED_MIN + 64 or as_int32 <= line_id < as_int32 + 64


def plane_tables(plane):
    """A plane's event names and stat names by metadata id, and stat(event, name): the event's stat of that name."""
    names = {one(e['value'][0], 'id'): one(e['value'][0], 'name', '') for e in plane.get('event_metadata', [])}
    stat_names = {one(s['value'][0], 'id'): one(s['value'][0], 'name', '') for s in plane.get('stat_metadata', [])}
    stat_ids = {name: key for key, name in stat_names.items()}

    def stat(event, name):
        for s in event.get('stats', []):
            if one(s, 'metadata_id') == stat_ids.get(name, -1):
                return s
        return None

    return names, stat_names, stat


def event_span_ns(line, event):
    """An event's start and end in ns: the line's timestamp_ns plus the event's offset (ps)."""
    base, offset = one(line, 'timestamp_ns', 0), one(event, 'offset_ps', 0)
    return base + offset // 1000, base + (offset + one(event, 'duration_ps', 0)) // 1000


def is_tf_op(name):
    """A TensorFlow op's event name: "name:Type", not a transfer (_Send, _Recv, ...), a tf.data range or an
    annotation (a name with '::' or a space)."""
    if name.startswith('Iterator::') or name.startswith('IteratorGetNext') or ':' not in name:
        return False
    if '::' in name or ' ' in name:
        return False
    return name[name.rfind(':') + 1:] not in ('_Send', '_Recv', '_HostSend', '_HostRecv')


def main(path):
    space = parse(decode(path))
    totals = dict(kernels=0, kernel_ns=0, memcpys=0, memcpy_bytes=0, memsets=0, api_calls=0, memory_events=0,
                  steps=0, gpus=0, host_events=0)
    steps_taken = False
    gpu_ns_of_correlation = {}
    host_ops = []  # (start_ns, end_ns, correlation ids of the calls inside)
    for plane in space.get('planes', []):
        name = one(plane, 'name', '')
        events, _, stat = plane_tables(plane)

        if name.startswith('/device:GPU:'):
            totals['gpus'] += 1
            for line in plane.get('lines', []):
                lname = one(line, 'name', '')
                if is_derived(one(line, 'id', 0)) or not lname.startswith('Stream'):
                    if lname == 'Steps' and not steps_taken and line.get('events'):
                        steps_taken = True
                        totals['steps'] = len(line['events'])
                    continue
                for e in line.get('events', []):
                    ename = events.get(one(e, 'metadata_id'), '')
                    start, end = event_span_ns(line, e)
                    correlation = stat(e, 'correlation_id')
                    if correlation:
                        key = one(correlation, 'int64_value', one(correlation, 'uint64_value'))
                        gpu_ns_of_correlation[key] = gpu_ns_of_correlation.get(key, 0) + end - start
                    memcpy = stat(e, 'memcpy_details')
                    if memcpy or ename.startswith('Memcpy'):
                        totals['memcpys'] += 1
                        text = one(memcpy, 'str_value', '') if memcpy else ''
                        m = re.search(r'(?:^| )size:(\d+)', text)
                        totals['memcpy_bytes'] += int(m.group(1)) if m else 0
                    elif stat(e, 'memset_details') or ename.startswith('Memset'):
                        totals['memsets'] += 1
                    else:
                        totals['kernels'] += 1
                        totals['kernel_ns'] += end - start
        elif name == '/host:CPU':
            for line in plane.get('lines', []):
                if is_derived(one(line, 'id', 0)):
                    continue
                base = one(line, 'timestamp_ns', 0)
                spans = []  # (start_ps, -end_ps, kind, event)
                for e in line.get('events', []):
                    ename = events.get(one(e, 'metadata_id'), '')
                    start, end = one(e, 'offset_ps', 0), one(e, 'offset_ps', 0) + one(e, 'duration_ps', 0)
                    if stat(e, 'correlation_id'):
                        c = stat(e, 'correlation_id')
                        spans.append((start, -end, 'call', one(c, 'int64_value', one(c, 'uint64_value'))))
                    elif is_tf_op(ename):
                        spans.append((start, -end, 'op', None))
                open_ops = []
                for start, neg_end, kind, value in sorted(spans, key=lambda x: (x[0], x[1])):
                    while open_ops and open_ops[-1][1] <= start:
                        open_ops.pop()
                    if kind == 'call':
                        if open_ops:
                            open_ops[-1][2].append(value)
                    else:
                        op = [start, -neg_end, []]
                        open_ops.append(op)
                        host_ops.append((base + start // 1000, base + (-neg_end) // 1000, op[2]))
                for e in line.get('events', []):
                    ename = events.get(one(e, 'metadata_id'), '')
                    if stat(e, 'correlation_id'):
                        totals['api_calls'] += 1
                    elif ename in ('MemoryAllocation', 'MemoryDeallocation'):
                        totals['memory_events'] += 1
                    else:
                        totals['host_events'] += 1
    if host_ops:
        totals.update(tf_ops_host=0, tf_ops_device=0, tf_op_host_ns=0, tf_op_device_ns=0)
        for start, end, calls in host_ops:
            gpu = [gpu_ns_of_correlation[c] for c in calls if c in gpu_ns_of_correlation]
            if gpu:
                totals['tf_ops_device'] += 1
                totals['tf_op_device_ns'] += sum(gpu)
            else:
                totals['tf_ops_host'] += 1
                totals['tf_op_host_ns'] += end - start
    for key, value in totals.items():
        print(f'{key} {value}')


if __name__ == '__main__':
    main(sys.argv[1])
