#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compares a `placescope capture` trace with a torch.profiler trace of the same ResNet-50 steps
(resnet_steps.py), and step times of the plain, capture and torch.profiler runs.

Per step ("step N" ranges): the number of kernels launched in the step and their summed duration. A kernel
belongs to the step in which its launch call (runtime or driver API, joined on the correlation id) started,
the same rule for both traces (round 1's traces). Overhead: per round, the median step time under each profiler
over the median plain step time of the same round; rounds run interleaved (plain, capture, torch.profiler) in
one run of run_capture_bench.sh, and the median ratio over the rounds is printed last.
Usage: compare_capture.py <work dir> <rounds>
"""
import json
import sqlite3
import statistics
import sys


def capture_steps(path):
    db = sqlite3.connect(path)
    steps = db.execute(
        "SELECT s.value, n.start, n.end FROM NVTX_EVENTS n JOIN StringIds s ON s.id = n.textId "
        "WHERE s.value LIKE 'step %' AND n.end IS NOT NULL").fetchall()
    launches = db.execute(
        "SELECT r.start, k.end - k.start FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
        "ON r.correlationId = k.correlationId AND r.globalTid / 16777216 = k.globalPid / 16777216").fetchall()
    unlinked = db.execute(
        "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE NOT EXISTS (SELECT 1 FROM "
        "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId AND "
        "r.globalTid / 16777216 = k.globalPid / 16777216)").fetchone()[0]
    return assign(steps, launches), unlinked


def torch_steps(path):
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    steps, launch_ts, kernels = [], {}, []
    for e in events:
        cat, ph = e.get("cat", ""), e.get("ph")
        if ph != "X":
            continue
        if cat == "user_annotation" and e.get("name", "").startswith("step "):
            steps.append((e["name"], e["ts"] * 1000, (e["ts"] + e["dur"]) * 1000))
        elif cat in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            launch_ts[e["args"]["correlation"]] = e["ts"] * 1000
        elif cat == "kernel":
            kernels.append((e["args"].get("correlation"), e["dur"] * 1000))
    launches = [(launch_ts[c], d) for c, d in kernels if c in launch_ts]
    return assign(steps, launches), len(kernels) - len(launches)


def assign(steps, launches):
    # De-duplicate step names (keep the first of each) and count kernels whose launch started inside.
    result = {}
    for name, start, end in sorted(steps, key=lambda s: s[1]):
        if name in result:
            continue
        inside = [d for t, d in launches if start <= t <= end]
        result[name] = (len(inside), sum(inside))
    return result


def median_step(path):
    with open(path) as f:
        return statistics.median(json.load(f)["step_ms"])


def main():
    work, rounds = sys.argv[1], int(sys.argv[2])
    ours, ours_unlinked = capture_steps(f"{work}/capture1.sqlite")
    theirs, theirs_unlinked = torch_steps(f"{work}/torchprof1.trace.json")
    print(f"{'step':>8} {'kernels capture':>16} {'kernels torch':>14} {'kernel ms capture':>18} "
          f"{'kernel ms torch':>16} {'time diff %':>12}")
    total = [0, 0, 0.0, 0.0]
    names = sorted(set(ours) & set(theirs), key=lambda n: int(n.split()[1]))
    for name in names:
        (oc, ot), (tc, tt) = ours[name], theirs[name]
        total = [total[0] + oc, total[1] + tc, total[2] + ot, total[3] + tt]
        print(f"{name:>8} {oc:>16} {tc:>14} {ot / 1e6:>18.3f} {tt / 1e6:>16.3f} {100 * (ot - tt) / tt:>12.3f}")
    n = max(len(names), 1)
    print(f"per step (round 1, {len(names)} steps): capture {total[0] / n:.1f} kernels, {total[2] / n / 1e6:.3f} ms "
          f"kernel time; torch.profiler {total[1] / n:.1f} kernels, {total[3] / n / 1e6:.3f} ms kernel time; "
          f"count diff {100 * (total[0] - total[1]) / max(total[1], 1):.3f} %, "
          f"time diff {100 * (total[2] - total[3]) / max(total[3], 1):.3f} %")
    print(f"kernels without a launch record: capture {ours_unlinked}, torch.profiler {theirs_unlinked}")
    capture_ratios, torch_ratios = [], []
    for r in range(1, rounds + 1):
        plain = median_step(f"{work}/plain{r}.json")
        capture = median_step(f"{work}/capture{r}.json")
        torchprof = median_step(f"{work}/torchprof{r}.json")
        capture_ratios.append(capture / plain)
        torch_ratios.append(torchprof / plain)
        print(f"round {r}: median step plain {plain:.3f} ms, capture {capture:.3f} ms (ratio {capture / plain:.4f}), "
              f"torch.profiler {torchprof:.3f} ms (ratio {torchprof / plain:.4f})")
    print(f"median over {rounds} rounds: capture/plain {statistics.median(capture_ratios):.4f}, "
          f"torch.profiler/plain {statistics.median(torch_ratios):.4f}")


if __name__ == "__main__":
    main()
