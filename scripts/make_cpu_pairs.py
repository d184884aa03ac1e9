#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Makes real before/after pairs of PyTorch profiler traces on the CPU, for checking whatif's predictions of host-side
# fixes against a measured run (docs/whatif_accuracy.md, tests/whatif/replay/real_pairs_test.cpp).
#
#   apt-get install python3-torch        # Debian 12's PyTorch 1.13, CPU only, built without Kineto
#   /usr/bin/python3 scripts/make_cpu_pairs.py OUTDIR
#
# Each pair trains the same small CNN on one thread; "before" and "after" differ by one change a user makes:
#   loader_half     per-sample preprocessing in the DataLoader made twice as fast        (edit: input=x0.5)
#   loader_worker   num_workers 0 -> 1, the preprocessing moved to a worker process     (edit: workers=1)
#   loader_workers  num_workers 0 -> 2, two worker processes                            (edit: workers=2)
#   debug_copy      a debugging copy of the batch's activations each step removed       (edit: drop:op:aten::clone)
# The build machine has 2 cores: with two workers beside the training thread, three processes share them.
# Debian's build writes the profiler's legacy format (a bare array, processes "CPU functions"), which
# `placescope import` reads. The preprocessing is pure Python, as image decoding in PIL is: the profiler records no
# operator inside it, which keeps the traces small.
import gzip
import os
import sys

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

STEPS = 8  # recorded steps, after one skipped and two of warm-up


class Preprocessed(Dataset):
    def __init__(self, work):
        self.work = work

    def __len__(self):
        return 100000

    def __getitem__(self, index):
        acc = 0
        for k in range(self.work):  # stands for decoding and augmenting one image
            acc += (k * index) % 7
        return torch.full((3, 32, 32), float(acc % 5)), index % 10


def train(out_path, work, workers, debug_copy):
    torch.manual_seed(0)
    torch.set_num_threads(1)
    loader = DataLoader(Preprocessed(work), batch_size=16, num_workers=workers)
    model = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    batches = iter(loader)
    activity = [torch.profiler.ProfilerActivity.CPU]
    plan = torch.profiler.schedule(wait=1, warmup=2, active=STEPS)
    with torch.profiler.profile(activities=activity, schedule=plan,
                                on_trace_ready=lambda p: p.export_chrome_trace(out_path)) as profiler:
        for _ in range(1 + 2 + STEPS):
            x, y = next(batches)
            hidden = model[:4](x)
            if debug_copy:
                for _ in range(8):  # a snapshot of the activations, kept "for debugging" and never read
                    hidden.clone()
            loss = nn.functional.cross_entropy(model[4:](hidden), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            profiler.step()


PAIRS = {
    "loader_half": ({"work": 60000, "workers": 0, "debug_copy": False},
                    {"work": 30000, "workers": 0, "debug_copy": False}),
    "loader_worker": ({"work": 60000, "workers": 0, "debug_copy": False},
                      {"work": 60000, "workers": 1, "debug_copy": False}),
    "loader_workers": ({"work": 60000, "workers": 0, "debug_copy": False},
                       {"work": 60000, "workers": 2, "debug_copy": False}),
    "debug_copy": ({"work": 20000, "workers": 0, "debug_copy": True},
                   {"work": 20000, "workers": 0, "debug_copy": False}),
}


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for name, (before, after) in PAIRS.items():
        for side, settings in (("before", before), ("after", after)):
            json_path = os.path.join(out_dir, f"cpu_{name}_{side}.json")
            train(json_path, **settings)
            with open(json_path, "rb") as src, gzip.open(json_path + ".gz", "wb", compresslevel=9) as dst:
                dst.write(src.read())
            os.remove(json_path)
            print(json_path + ".gz")


if __name__ == "__main__":
    main()
