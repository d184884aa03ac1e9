#!/usr/bin/env bash
# Fuzzes the Kineto JSON importer with libFuzzer + AddressSanitizer (clang from Debian) for SECONDS (default
# 300), starting from the kept corpus. New inputs that reach new code are merged back into
# tests/profiler/fuzz/corpus/kineto_json; a crash or hang leaves its input in build-fuzz/ to be added there too.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
scripts/install-deps.sh
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLACESCOPE_FUZZ=ON \
  -DPLACESCOPE_BUILD_GUI=OFF -DPLACESCOPE_BUILD_BENCH=OFF -DPLACESCOPE_WITH_CUPTI=OFF >/dev/null
cmake --build build-fuzz --target kineto_json_fuzzer
corpus=tests/profiler/fuzz/corpus/kineto_json
found=build-fuzz/fuzz-corpus
mkdir -p "$found"
build-fuzz/bin/kineto_json_fuzzer "$found" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=65536 -artifact_prefix=build-fuzz/ -print_final_stats=1
# Keep only the inputs that add coverage.
build-fuzz/bin/kineto_json_fuzzer -merge=1 "$corpus" "$found" >/dev/null 2>&1
echo "corpus: $(ls "$corpus" | wc -l) inputs in $corpus"
