#!/usr/bin/env python3
# Times the imports of two (or more) placescope binaries on one trace, interleaved so that the shared host's
# load falls on all of them alike, and prints wall time (minimum, first quartile, median) and CPU time (user +
# system of the child) per binary. For a change to the import path; bench/import (import_bench) measures one
# binary against python.
#   scripts/ab_import.py [--runs N] [--trace FILE] BINARY BINARY [...]
import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--trace", default=os.path.join(ROOT, "tests/data/traces/hta_v100_rank1of2_memory.json.gz"))
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    wall = {binary: [] for binary in args.binaries}
    cpu = {binary: [] for binary in args.binaries}
    with tempfile.TemporaryDirectory() as work:
        output = os.path.join(work, "trace.sqlite")
        for _ in range(args.runs):
            for binary in args.binaries:
                if os.path.exists(output):
                    os.remove(output)
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run([binary, "import", args.trace, "-o", output], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                wall[binary].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[binary].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    for binary in args.binaries:
        w, c = sorted(wall[binary]), sorted(cpu[binary])
        print(f"{binary}: wall min {w[0] * 1000:.1f} q25 {w[len(w) // 4] * 1000:.1f} med {statistics.median(w) * 1000:.1f} ms"
              f" | cpu min {c[0] * 1000:.1f} med {statistics.median(c) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
