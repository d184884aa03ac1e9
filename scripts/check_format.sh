#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fails when a C++ source differs from .clang-format (Debian 12's clang-format 14, which install-deps.sh brings).
# Fix with: scripts/check_format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.h' '*.hpp' '*.cpp' '*.cc' | grep -v '^tests/data/' | while read -r f; do
  [ -f "$f" ] && echo "$f"; done) # a file deleted in the work tree but still in the index is skipped
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
if ! out=$(clang-format --dry-run --Werror "${files[@]}" 2>&1); then
  bad=$(printf '%s\n' "$out" | grep -oE '^[^:]+\.(h|hpp|cpp|cc):' | sort -u | tr -d ':')
  printf '%s: differs from .clang-format\n' $bad
  echo "check_format: $(printf '%s\n' $bad | wc -l) file(s) differ; run scripts/check_format.sh --fix" >&2
  exit 1
fi
