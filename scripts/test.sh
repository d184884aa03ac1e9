#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: dependencies, build, every test that needs no GPU, then the
# fuzz corpora (Kineto JSON, nsys SQLite, ONNX) replayed under AddressSanitizer by a second build of the importers
# and the ONNX loader only (preset asan).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh ci
ctest --preset ci -j "$(nproc)"
cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan -j "$(nproc)"
