#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent reader of an ONNX Runtime profile (onnxruntime_profile_*.json), for checking the importer's figures.

Reads the whole file with Python's json module (not our C++ splitter and simdjson) and sums what the importer
should store: node runs (<node>_kernel_time) by device of their provider, fences, Session events, model_run steps,
and the arena figures (memory events: count and summed mem_in_use_delta). Times in ns (ORT writes microseconds).

    python3 tests/data/ort_ref.py tests/data/traces/ort130_ultraface_rfb320_cpu.json

With --model MODEL.onnx, also the model's nodes against the profile's by exact name, as ORT names a node's run
(<name>_kernel_time; an unnamed node <op type>_<index in the graph>): the model is read with protoc --decode of
Debian's onnx.proto (libonnx-dev), not with our loader. Per matched node: runs, mean time per model_run, provider.

    python3 tests/data/ort_ref.py --model tests/data/models/mnist.onnx tests/data/traces/ort130_mnist_cpu.json
"""
import collections
import gzip
import json
import re
import subprocess
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


def model_node_names(model):
    """The main graph's node names as ORT's profiler gives them, in graph order."""
    with open(model, 'rb') as f:
        text = subprocess.run(['protoc', '-I/usr/include', '--decode=onnx.ModelProto', 'onnx/onnx.proto'],
                              stdin=f, capture_output=True, check=True, text=True).stdout
    names = []
    # Top-level nodes are "  node {" blocks of the graph; their own name and op_type are indented by four.
    for index, block in enumerate(re.findall(r'\n  node \{\n(.*?)\n  \}', text, re.S)):
        fields = dict(re.findall(r'^    (name|op_type): "(.*)"$', block, re.M))
        names.append(fields.get('name') or f"{fields['op_type']}_{index}")
    return names


def match_model(path, model):
    opener = gzip.open if open(path, 'rb').read(2) == b'\x1f\x8b' else open
    with opener(path, 'rt', encoding='utf-8') as f:
        events = json.load(f)
    runs = sum(1 for e in events if e['cat'] == 'Session' and e['name'] == 'model_run')
    nodes = collections.defaultdict(list)
    for e in events:
        if e['cat'] == 'Node' and e['name'].endswith('_kernel_time'):
            nodes[e['name'][:-len('_kernel_time')]].append((e['dur'], e.get('args', {}).get('provider', '')))
    names = model_node_names(model)
    matched = [n for n in names if n in nodes]
    print(f'  model_nodes {len(names)}')
    print(f'  profile_nodes {len(nodes)}')
    print(f'  profile_node_runs {sum(len(v) for v in nodes.values())}')
    print(f'  matched_nodes {len(matched)}')
    for name in matched:
        durs = [d for d, _ in nodes[name]]
        print(f'    {name} runs {len(durs)} mean_us_per_run {sum(durs) / runs} provider {nodes[name][0][1]}')


if __name__ == '__main__':
    args = sys.argv[1:]
    model = None
    if args[:1] == ['--model']:
        model, args = args[1], args[2:]
    for path in args:
        print(path)
        for key, value in sorted(summarize(path).items()):
            print(f'  {key} {value}')
        if model:
            match_model(path, model)
