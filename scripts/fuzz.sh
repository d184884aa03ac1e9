#!/usr/bin/env bash
# Fuzzes one target with libFuzzer + AddressSanitizer (clang from Debian) for SECONDS (default 300), starting from
# its kept corpus: scripts/fuzz.sh [kineto_json|nsys_sqlite|onnx] [SECONDS] (default kineto_json). New inputs that
# reach new code are merged back into the corpus; a crash or hang leaves its input in build-fuzz/ to be added there
# too. Every build replays the corpora as tests (<target>_corpus_replay; CI also under AddressSanitizer).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then set -- kineto_json "$1"; fi # the older form: scripts/fuzz.sh SECONDS
target="${1:-kineto_json}"
seconds="${2:-300}"
case "$target" in
  kineto_json) corpus=tests/profiler/fuzz/corpus/kineto_json max_len=65536 ;;
  nsys_sqlite) corpus=tests/profiler/fuzz/corpus/nsys_sqlite max_len=131072 ;;
  onnx) corpus=tests/placement/fuzz/corpus/onnx max_len=65536 ;;
  *) echo "usage: scripts/fuzz.sh [kineto_json|nsys_sqlite|onnx] [SECONDS]" >&2; exit 2 ;;
esac
scripts/install-deps.sh
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLACESCOPE_FUZZ=ON \
  -DPLACESCOPE_BUILD_GUI=OFF -DPLACESCOPE_BUILD_BENCH=OFF -DPLACESCOPE_WITH_CUPTI=OFF >/dev/null
cmake --build build-fuzz --target "${target}_fuzzer"
found="build-fuzz/fuzz-corpus-$target"
mkdir -p "$found"
"build-fuzz/bin/${target}_fuzzer" "$found" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len="$max_len" -artifact_prefix=build-fuzz/ -print_final_stats=1
# Keep only the inputs that add coverage.
"build-fuzz/bin/${target}_fuzzer" -merge=1 "$corpus" "$found" >/dev/null 2>&1
echo "corpus: $(ls "$corpus" | wc -l) inputs in $corpus"
