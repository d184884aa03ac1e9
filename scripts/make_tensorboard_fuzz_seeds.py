#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the TensorBoard trace JSON fuzz target's seed corpus (tests/profiler/fuzz/corpus/tensorboard_trace): a
small trace cut from the TF BERT step's (tests/data/traces/tf_bert_v100_step_excerpt.trace.json.gz, made by
scripts/make_tensorboard_trace_json.py: every metadata event and the first 20 complete events of the host and of
GPU 4) and damaged copies of it (cut in half, gzip cut short, a name made non-UTF-8, elements that are not events and
events with bad fields, the host plane only, trailing bytes).

    python3 scripts/make_tensorboard_fuzz_seeds.py
"""
import gzip
import json

from seed_corpus import trace, write_seeds

REAL = trace('tf_bert_v100_step_excerpt.trace.json.gz')
HEAD = b'{"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":['


def dump(events):
    return HEAD + b','.join(json.dumps(e, ensure_ascii=False, separators=(',', ':')).encode('utf-8')
                            for e in events + [{}]) + b']}'


def main():
    events = json.loads(gzip.decompress(open(REAL, 'rb').read()))['traceEvents']
    meta = [e for e in events if e.get('ph') == 'M']
    host = [e for e in events if e.get('ph') == 'X' and e['pid'] == 1][:20]
    gpu = [e for e in events if e.get('ph') == 'X' and e['pid'] == 1004 and e['tid'] == 134][:20]
    small = dump(meta + host + gpu)
    bad = [7, 'text', [1, 2], {'ph': 'X', 'pid': 1004, 'tid': 134, 'ts': 'soon', 'dur': 1, 'name': 'k'},
           {'ph': 'X', 'pid': 1004, 'tid': 134, 'ts': -5, 'dur': 1, 'name': 'k'},
           {'ph': 'X', 'pid': 77, 'tid': 1, 'ts': 5, 'dur': 1, 'name': 'unnamed process'},
           {'ph': 'X', 'pid': 1004, 'tid': {'a': 1}, 'ts': 5, 'dur': 1, 'name': 'k'},
           {'ph': 'C', 'pid': 1, 'name': 'counter', 'args': {'v': 1}}, {'pid': 1}]
    seeds = {
        'small_trace.trace.json': small,
        'small_trace.trace.json.gz': gzip.compress(small, mtime=0),
        'cut_in_half.trace.json': small[:len(small) // 2],
        'gzip_cut_short.trace.json.gz': gzip.compress(small, mtime=0)[:600],
        'non_utf8_name.trace.json': small.replace(b'MemcpyH2D', b'Memcpy\xff\xfe', 1),
        'bad_elements.trace.json': dump(meta + bad + host + gpu),
        'host_only.trace.json': dump([e for e in meta if e['pid'] == 1] + host),
        'trailing_bytes.trace.json': small + b'\n{"ph":"X"}\n',
    }
    write_seeds('tensorboard_trace', seeds)


if __name__ == '__main__':
    main()
