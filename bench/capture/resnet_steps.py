#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ResNet-50 training steps on synthetic data, timed per step, for the capture benchmark and comparison.

Every mode runs the same code: seed 0, torchvision resnet50, SGD(momentum=0.9), batch --batch of random
224x224 images, --warmup untimed steps, then --steps timed steps. Each timed step is wrapped in an NVTX range
"step N" (and, under torch.profiler, a record_function of the same name) and bounded by
torch.cuda.synchronize(), so step times are wall-clock times of complete steps.

  --mode plain       no profiler (baseline)
  --mode capture     the same, meant to run under `placescope capture` (the NVTX ranges mark the steps)
  --mode torchprof   torch.profiler(activities=[CPU, CUDA]) around the timed steps; --trace writes its
                     Chrome trace for compare_capture.py
  --mode torchmem    torch.profiler(activities=[CPU], profile_memory=True) around the timed steps (CPU only, so
                     it does not take CUPTI); --trace writes the Kineto trace for `capture --torch-memory`

Writes {"mode", "step_ms": [...]} to --out.
"""
import argparse
import json
import statistics
import time

import torch
import torchvision


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["plain", "capture", "torchprof", "torchmem"], required=True)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--out", required=True)
    parser.add_argument("--trace", default="")
    args = parser.parse_args()

    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = False  # same kernels in every run
    model = torchvision.models.resnet50().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = torch.nn.CrossEntropyLoss()
    images = torch.randn(args.batch, 3, 224, 224, device="cuda")
    labels = torch.randint(0, 1000, (args.batch,), device="cuda")

    def train_step():
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()

    for _ in range(args.warmup):
        train_step()
    torch.cuda.synchronize()

    step_ms = []

    def timed_steps(annotate):
        for i in range(args.steps):
            torch.cuda.synchronize()
            start = time.perf_counter()
            torch.cuda.nvtx.range_push(f"step {i}")
            if annotate:
                with torch.profiler.record_function(f"step {i}"):
                    train_step()
            else:
                train_step()
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_pop()
            step_ms.append((time.perf_counter() - start) * 1e3)

    if args.mode in ("plain", "capture"):
        timed_steps(False)
    else:
        activities = [torch.profiler.ProfilerActivity.CPU]
        if args.mode == "torchprof":
            activities.append(torch.profiler.ProfilerActivity.CUDA)
        with torch.profiler.profile(activities=activities, profile_memory=args.mode == "torchmem") as prof:
            timed_steps(True)
        if args.trace:
            prof.export_chrome_trace(args.trace)

    with open(args.out, "w") as out:
        json.dump({"mode": args.mode, "step_ms": step_ms}, out)
    print(f"{args.mode}: median step {statistics.median(step_ms):.3f} ms over {len(step_ms)} steps", flush=True)


if __name__ == "__main__":
    main()
