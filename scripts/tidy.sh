#!/usr/bin/env bash
# clang-tidy with the checks in .clang-tidy over the project's own sources, read from a configured build folder's
# compile_commands.json (every preset exports one). Not run by CI (the tree is not clean yet: docs/design.md, "CI").
#   scripts/tidy.sh                          every source of profiler/ analysis/ placement/ whatif/ ui/ app/ tests/
#   scripts/tidy.sh profiler/store/ app/cli  only the files whose path matches one of these regular expressions
#   BUILD_DIR=build-asan JOBS=1 scripts/tidy.sh ...
# Exits 1 when clang-tidy warned about anything (the warnings are printed), 2 when it could not run.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
build="${BUILD_DIR:-build}"
if [[ ! -f "$build/compile_commands.json" ]]; then
  echo "tidy.sh: no $build/compile_commands.json: configure first (cmake --preset ci)" >&2
  exit 2
fi
tidy_runner="$(command -v run-clang-tidy || command -v run-clang-tidy-14 || true)"
if [[ -z "$tidy_runner" ]]; then
  echo "tidy.sh: run-clang-tidy not found (apt install clang-tidy)" >&2
  exit 2
fi
ours="(profiler|analysis|placement|whatif|ui|app|tests)/"
files=()
if [[ $# -eq 0 ]]; then
  files=("^$root/$ours")
else
  for pattern in "$@"; do files+=("^$root/.*$pattern"); done
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# The compile commands are gcc's: clang does not know some of its warning options (-Wno-restrict).
status=0
"$tidy_runner" -quiet -p "$build" -j "${JOBS:-$(nproc)}" -header-filter="^$root/$ours" \
  -extra-arg=-Wno-unknown-warning-option "${files[@]}" >"$log" 2>&1 || status=$?
# run-clang-tidy colours its output and repeats a header's warning once per file that includes it.
sed -i 's/\x1b\[[0-9;]*m//g' "$log"
grep -v -e '^clang-tidy-[0-9]* ' -e '^\[[0-9]*/[0-9]*\]' -e 'warnings\? generated\.$' -e '^Suppressed [0-9]* warnings' \
  -e '^Use -header-filter' "$log" || true
warnings=$(grep -E ': warning: .*\[[a-z0-9.,-]+\]$' "$log" | sort -u | wc -l)
errors=$(grep -c ': error: ' "$log" || true)
echo "tidy.sh: $warnings distinct warnings, $errors errors"
if [[ $errors -gt 0 || ($status -ne 0 && $warnings -eq 0) ]]; then
  exit 2
fi
[[ $warnings -eq 0 ]]
