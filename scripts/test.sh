#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: dependencies, build, every test that needs no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh ci
ctest --preset ci -j "$(nproc)"
