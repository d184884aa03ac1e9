#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Capture overhead and fidelity on a GPU, in one run: ResNet-50 training steps (resnet_steps.py) plain, under
# `placescope capture`, and under torch.profiler, interleaved for <rounds> rounds; prints per-step kernel
# counts/times of both traces and the step-time ratios against the plain run of the same round
# (compare_capture.py).
# Usage: bench/capture/run_capture_bench.sh <placescope binary> <work dir> [rounds] [steps] [warmup] [batch]
set -euo pipefail
placescope=$1
work=$2
rounds=${3:-3}
steps=${4:-30}
warmup=${5:-10}
batch=${6:-64}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
common=(--steps "$steps" --warmup "$warmup" --batch "$batch")
for round in $(seq 1 "$rounds"); do
    python3 "$here/resnet_steps.py" --mode plain "${common[@]}" --out "$work/plain$round.json"
    "$placescope" capture -o "$work/capture$round.sqlite" -- \
        python3 "$here/resnet_steps.py" --mode capture "${common[@]}" --out "$work/capture$round.json"
    python3 "$here/resnet_steps.py" --mode torchprof "${common[@]}" --out "$work/torchprof$round.json" \
        --trace "$work/torchprof$round.trace.json"
done
python3 "$here/compare_capture.py" "$work" "$rounds"
