#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Capture overhead and fidelity on a GPU, in one run: ResNet-50 training steps (resnet_steps.py) plain, under
# `placescope capture`, and under torch.profiler; prints per-step kernel counts/times of both traces and the
# step-time ratios against the plain run of this same invocation (compare_capture.py).
# Usage: bench/capture/run_capture_bench.sh <placescope binary> <work dir> [steps] [warmup] [batch]
set -euo pipefail
placescope=$1
work=$2
steps=${3:-30}
warmup=${4:-10}
batch=${5:-64}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
common=(--steps "$steps" --warmup "$warmup" --batch "$batch")
python3 "$here/resnet_steps.py" --mode plain "${common[@]}" --out "$work/plain.json"
"$placescope" capture -o "$work/capture.sqlite" -- \
    python3 "$here/resnet_steps.py" --mode capture "${common[@]}" --out "$work/capture.json"
python3 "$here/resnet_steps.py" --mode torchprof "${common[@]}" --out "$work/torchprof.json" \
    --trace "$work/torchprof.json.trace"
python3 "$here/compare_capture.py" "$work/plain.json" "$work/capture.json" "$work/torchprof.json" \
    "$work/capture.sqlite" "$work/torchprof.json.trace"
