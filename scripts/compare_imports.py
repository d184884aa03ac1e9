#!/usr/bin/env python3
# Compares what two placescope binaries make of the same inputs: for every input, both imports must end alike
# (same exit code, same error line when they fail) and write the same rows in every table (PS_META aside: it
# holds the creation time). Run it before and after a change to an importer or the trace writer that should not
# change the data:
#   scripts/compare_imports.py OLD_BINARY NEW_BINARY [INPUT ...]
# Without inputs it takes the real traces in tests/data/traces and the Kineto fuzz corpus.
import glob
import hashlib
import os
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_inputs():
    traces = sorted(glob.glob(os.path.join(ROOT, "tests/data/traces/*.json.gz")))
    traces += sorted(glob.glob(os.path.join(ROOT, "tests/data/traces/*.sqlite")))
    corpus = sorted(glob.glob(os.path.join(ROOT, "tests/profiler/fuzz/corpus/kineto_json/*")))
    return traces + corpus


def run_import(binary, source, output):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(output + suffix):
            os.remove(output + suffix)
    result = subprocess.run([binary, "import", "-q", source, "-o", output], capture_output=True, text=True)
    return result.returncode, result.stderr.strip().replace(output, "OUTPUT")


def table_digests(path):
    db = sqlite3.connect(path)
    tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'PS_META'")]
    db.text_factory = bytes  # problem examples may hold repaired, not decodable, text
    digests = {}
    for table in tables:
        digest = hashlib.md5()
        for row in db.execute(f'SELECT * FROM "{table}" ORDER BY rowid'):
            digest.update(repr(row).encode())
        digests[table] = digest.hexdigest()
    db.close()
    return digests


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: compare_imports.py OLD_BINARY NEW_BINARY [INPUT ...]")
    old, new = sys.argv[1], sys.argv[2]
    inputs = sys.argv[3:] or default_inputs()
    differing = 0
    with tempfile.TemporaryDirectory() as work:
        old_out, new_out = os.path.join(work, "old.sqlite"), os.path.join(work, "new.sqlite")
        for source in inputs:
            old_end, new_end = run_import(old, source, old_out), run_import(new, source, new_out)
            if old_end != new_end:
                print(f"{source}: the imports end differently: {old_end} / {new_end}")
                differing += 1
            elif old_end[0] == 0:
                old_tables, new_tables = table_digests(old_out), table_digests(new_out)
                changed = sorted(t for t in old_tables.keys() | new_tables.keys() if old_tables.get(t) != new_tables.get(t))
                if changed:
                    print(f"{source}: tables differ: {', '.join(changed)}")
                    differing += 1
    print(f"{len(inputs)} inputs, {differing} differ")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
