#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reader of an ONNX Runtime profile (onnxruntime_profile_*.json), for checking the importer's figures.

Reads the whole file with Python's json module (not our C++ splitter and simdjson) and sums what the importer
should store: node runs (<node>_kernel_time) by device of their provider, fences, Session events, model_run steps,
and the arena figures (memory events: count and summed mem_in_use_delta). Times in ns (ORT writes microseconds).

    python3 tests/data/ort_ref.py tests/data/traces/ort130_ultraface_rfb320_cpu.json
"""
import collections
import gzip
import json
import sys

GPU_PROVIDERS = ('CUDA', 'Tensorrt', 'ROCM', 'MIGraphX', 'Dml', 'WebGpu', 'NvTensorRTRTX')


def device(provider):
    if not provider or provider.startswith(('CPU', 'Xnnpack', 'DNNL', 'ACL', 'ArmNN')):
        return 'CPU'
    return 'GPU' if provider.startswith(GPU_PROVIDERS) else ''


def summarize(path):
    opener = gzip.open if open(path, 'rb').read(2) == b'\x1f\x8b' else open
    with opener(path, 'rt', encoding='utf-8') as f:
        events = json.load(f)
    out = collections.Counter()
    for e in events:
        dur = e['dur'] * 1000
        if e['cat'] == 'Session':
            out['session_events'] += 1
            out['session_ns'] += dur
            if e['name'] == 'model_run':
                out['steps'] += 1
                out['step_ns'] += dur
            continue
        name = e['name']
        if name.endswith(('_fence_before', '_fence_after')):
            out['fences'] += 1
            continue
        args = e.get('args', {})
        op = args.get('op_name', '')
        kind = 'memcpy' if op in ('MemcpyToHost', 'MemcpyFromHost') else \
            'layout' if op in ('ReorderInput', 'ReorderOutput') else 'node'
        dev = device(args.get('provider', ''))
        out['nodes'] += 1
        out[kind + '_nodes'] += 1
        out[kind + '_ns'] += dur
        out['nodes_on_' + (dev or 'unknown')] += 1
        out['ns_on_' + (dev or 'unknown')] += dur
        if 'mem_in_use_delta' in args and 'mem_bytes_in_use' in args:
            out['memory_events'] += 1
            out['memory_delta_bytes'] += int(args['mem_in_use_delta'])
    return out


if __name__ == '__main__':
    for path in sys.argv[1:]:
        print(path)
        for key, value in sorted(summarize(path).items()):
            print(f'  {key} {value}')
