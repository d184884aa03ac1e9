#!/usr/bin/env python3
"""Collectives per (kind, dtype, group size, message bytes) from a raw Kineto JSON trace, read from the NCCL kernels'
own args (PyTorch copies the record_param_comms message onto each NCCL kernel event), with tests/data/kineto_ref.py's
reader and rounding (dur to ns), for checking `placescope report collectives` without the project's importer, its
external-id links or its C++ code. Prints one JSON object:
{"AllReduce|Float|2|8196000": [count, total_ns, bytes, bus_gbps], ...}."""
import json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data"))
from kineto_ref import load  # noqa: E402

SIZES = {"Byte": 1, "Char": 1, "Bool": 1, "Short": 2, "Half": 2, "BFloat16": 2, "Int": 4, "Float": 4,
         "Long": 8, "Double": 8}
KINDS = {"allreduce": "AllReduce", "broadcast": "Broadcast", "allgather": "AllGather", "_allgather_base": "AllGather",
         "reduce_scatter": "ReduceScatter", "_reduce_scatter_base": "ReduceScatter", "all_to_all": "AllToAll",
         "reduce": "Reduce"}


def bus_factor(kind, n):
    # nccl-tests doc/PERFORMANCE.md, Summary
    return {"AllReduce": 2 * (n - 1) / n, "ReduceScatter": (n - 1) / n, "AllGather": (n - 1) / n,
            "AllToAll": (n - 1) / n, "Broadcast": 1, "Reduce": 1}[kind]


doc = load(sys.argv[1])
events = doc["traceEvents"] if isinstance(doc, dict) else doc
out = {}
for e in events:
    if not (isinstance(e, dict) and e.get("ph") == "X" and str(e.get("cat", "")).lower() == "kernel"):
        continue
    a = e.get("args", {})
    if "Collective name" not in a:
        continue
    kind = KINDS[a["Collective name"]]
    size = max(a["In msg nelems"], a["Out msg nelems"]) * SIZES[a["dtype"]]
    key = "%s|%s|%d|%d" % (kind, a["dtype"], a["Group size"], size)
    entry = out.setdefault(key, [0, 0, 0, 0.0])
    entry[0] += 1
    entry[1] += round(float(e.get("dur", 0)) * 1000)
    entry[2] += size
for key, entry in out.items():
    kind, _, n, _ = key.split("|")
    entry[3] = round(entry[2] / entry[1] * bus_factor(kind, int(n)), 6)
print(json.dumps(out, sort_keys=True))
