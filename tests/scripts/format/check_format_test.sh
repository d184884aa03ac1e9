#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/check_format.sh: passes on the source tree; in a scratch git tree with the same .clang-format it fails on
# a badly formatted file, naming it, and passes once --fix has run.
set -euo pipefail
root="$1"
"$root/scripts/check_format.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/scripts" "$scratch/analysis"
cp "$root/scripts/check_format.sh" "$scratch/scripts/"
cp "$root/.clang-format" "$scratch/"
printf 'int  f( int x ){return x;}\n' > "$scratch/analysis/bad.cpp"
git -C "$scratch" init -q && git -C "$scratch" add -A
if out=$("$scratch/scripts/check_format.sh" 2>&1); then
  echo "FAIL: a badly formatted file passed"; exit 1
fi
grep -q '^analysis/bad.cpp: differs from .clang-format' <<<"$out" || { echo "FAIL: not named: $out"; exit 1; }
"$scratch/scripts/check_format.sh" --fix
"$scratch/scripts/check_format.sh" || { echo "FAIL: still differs after --fix"; exit 1; }
echo "check_format: 3 checks passed"
