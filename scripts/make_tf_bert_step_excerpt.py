#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes tests/data/traces/tf_bert_v100_step_excerpt.xplane.pb: the one training step of the TensorFlow BERT XPlane
capture in ../shared/traces (tf_bert_v100x8_multiworker.xplane.pb, Apache-2.0) and nothing else. Every event whose
time overlaps the step (the Steps line's event) is kept as recorded, with the planes, lines, metadata and stats as
they were; events wholly outside it are left out. Done on the text format of Debian's protoc (--decode, then
--encode), so no byte of a kept event is rewritten by our code.

    python3 scripts/make_tf_bert_step_excerpt.py [path/to/tf_bert_v100x8_multiworker.xplane.pb]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
SOURCE = os.path.join(ROOT, '..', 'shared', 'traces', 'tf_bert_v100x8_multiworker.xplane.pb')
OUT = os.path.join(ROOT, 'tests', 'data', 'traces', 'tf_bert_v100_step_excerpt.xplane.pb')
PROTO = ['protoc', '-I', ROOT, 'profiler/importers/xplane/xplane.proto']
STEP_NS = (1921299828, 1941165319)  # the capture's one step (its Steps line), in the capture's ns


def field(block, name):
    m = re.search(r'^\s*' + name + r': (-?\d+)\s*$', block, re.M)
    return int(m.group(1)) if m else 0


def main():
    with open(sys.argv[1] if len(sys.argv) > 1 else SOURCE, 'rb') as f:
        text = subprocess.run(PROTO[:3] + ['--decode=tensorflow.profiler.XSpace'] + PROTO[3:], stdin=f,
                              capture_output=True, check=True, cwd=ROOT).stdout.decode('utf-8')
    out, line_ts, kept, dropped = [], 0, 0, 0
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        if stripped.startswith('timestamp_ns:') and raw.startswith('    ') and not raw.startswith('      '):
            line_ts = int(stripped.split(':')[1])
        if stripped == 'events {' and raw.startswith('    ') and not raw.startswith('      '):
            indent = raw[:len(raw) - len(raw.lstrip())]
            j = i + 1
            while lines[j] != indent + '}':
                j += 1
            block = '\n'.join(lines[i:j + 1])
            start = line_ts + field(block, 'offset_ps') // 1000
            end = start + field(block, 'duration_ps') // 1000
            if end >= STEP_NS[0] and start <= STEP_NS[1]:
                out.extend(lines[i:j + 1])
                kept += 1
            else:
                dropped += 1
            i = j + 1
            continue
        out.append(raw)
        i += 1
    encoded = subprocess.run(PROTO[:3] + ['--encode=tensorflow.profiler.XSpace'] + PROTO[3:],
                             input='\n'.join(out).encode('utf-8'), capture_output=True, check=True, cwd=ROOT).stdout
    with open(OUT, 'wb') as f:
        f.write(encoded)
    print(f'{OUT}: {len(encoded)} bytes, {kept} events kept, {dropped} left out')


if __name__ == '__main__':
    main()
