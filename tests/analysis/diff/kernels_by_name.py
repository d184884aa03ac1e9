#!/usr/bin/env python3
"""Kernel count and time per name from a raw Kineto JSON trace, with tests/data/kineto_ref.py's reader and
rounding (ts and dur to ns separately), for checking `placescope diff` without the project's importer.
Prints one JSON object: {name: [count, ns]}."""
import json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data"))
from kineto_ref import load  # noqa: E402

doc = load(sys.argv[1])
events = doc["traceEvents"] if isinstance(doc, dict) else doc
out = {}
for e in events:
    if isinstance(e, dict) and e.get("ph") == "X" and str(e.get("cat", "")).lower() == "kernel":
        entry = out.setdefault(str(e.get("name", "")), [0, 0])
        entry[0] += 1
        entry[1] += round(float(e.get("dur", 0)) * 1000)
print(json.dumps(out))
