#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: dependencies, build, every test that needs no GPU (preset ci),
# then two sanitizer builds of the parts without GUI: the unit suite and the fuzz corpora (Kineto JSON, nsys SQLite,
# ONNX, XPlane, ONNX Runtime profile, TensorBoard trace) under AddressSanitizer + UBSan (preset asan), and the
# importers, the store and the capture writer under ThreadSanitizer (preset tsan). Times: docs/design.md, "CI".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh ci
ctest --preset ci -j "$(nproc)"
for preset in asan tsan; do
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
  ctest --preset "$preset" -j "$(nproc)"
done
