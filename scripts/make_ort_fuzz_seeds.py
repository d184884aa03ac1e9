#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the ONNX Runtime profile fuzz target's seed corpus (tests/profiler/fuzz/corpus/onnxruntime_profile): the
real MNIST profile (tests/data/traces/ort130_mnist_cpu.json) and damaged copies of it (cut in half, gzip cut short,
a name made non-UTF-8, elements that are not events, an older profile without provider, a Kernel event of a
CUDA-profiling build, trailing bytes).

    python3 scripts/make_ort_fuzz_seeds.py
"""
import gzip

from seed_corpus import trace, write_seeds

REAL = trace('ort130_mnist_cpu.json')


def main():
    real = open(REAL, 'rb').read()
    lines = real.split(b'\n')
    seeds = {
        'mnist_profile.json': real,
        'cut_in_half.json': real[:len(real) // 2],
        'gzip_cut_short.json.gz': gzip.compress(real, mtime=0)[:900],
        'non_utf8_name.json': real.replace(b'Pooling66', b'Pool\xff\xfe66', 1),
        'not_events.json': b'\n'.join(lines[:3] + [b'7,', b'"text",', b'[1,2],', b'{"cat" : "Node", "ph" : "B"},']
                                     + lines[3:]),
        # ORT before 1.11: args hold op_name only (a CPU run), fence events around every node.
        'no_provider.json': b'[\n{"cat" : "Session","pid" :1,"tid" :1,"dur" :5,"ts" :1,"ph" : "X",'
                            b'"name" :"model_run","args" : {}},\n'
                            b'{"cat" : "Node","pid" :1,"tid" :1,"dur" :0,"ts" :2,"ph" : "X",'
                            b'"name" :"conv1_fence_before","args" : {"op_name" : "Conv"}},\n'
                            b'{"cat" : "Node","pid" :1,"tid" :1,"dur" :3,"ts" :2,"ph" : "X",'
                            b'"name" :"conv1_kernel_time","args" : {"op_name" : "Conv"}}\n]\n',
        'kernel_category.json': lines[0] + b'\n' + lines[1] + b'\n{"cat" : "Kernel","pid" :1,"tid" :1,"dur" :4,'
                                b'"ts" :9,"ph" : "X","name" :"sgemm","args" : {}},\n' + b'\n'.join(lines[2:]),
        'trailing_bytes.json': real + b'\n{"cat" : "Session"}\n',
    }
    write_seeds('onnxruntime_profile', seeds)


if __name__ == '__main__':
    main()
