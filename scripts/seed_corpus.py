# SPDX-License-Identifier: MIT
"""What the make_*_fuzz_seeds.py scripts share: the repository's paths and the one writer of a seed corpus
(tests/profiler/fuzz/corpus/NAME, one file per seed). Imported by those scripts, which Python runs with scripts/ on
its path."""
import os

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))


def trace(name):
    """The path of a real trace under tests/data/traces."""
    return os.path.join(ROOT, 'tests', 'data', 'traces', name)


def write_seeds(corpus, seeds):
    """Writes every seed (file name -> bytes) into tests/profiler/fuzz/corpus/CORPUS and prints its name and size."""
    out = os.path.join(ROOT, 'tests', 'profiler', 'fuzz', 'corpus', corpus)
    os.makedirs(out, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
        print(name, len(data))
