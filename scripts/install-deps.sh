#!/usr/bin/env bash
# Installs the Debian 12 packages Placescope builds with (sudo when not root). Safe to run again: apt runs only
# when dpkg-query finds one of them missing. help2man makes the man pages; dpkg-dev's dpkg-shlibdeps gives the
# .deb its Depends (cpack -G DEB); clang and libclang-rt are for scripts/fuzz.sh; python3-distributed (Dask) runs
# `placescope job import --dask*` and its test on a LocalCluster.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git python3
  libsqlite3-dev sqlite3 zlib1g-dev libisal-dev libre2-dev
  libsimdjson-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libgraphviz-dev graphviz
  qt6-base-dev qt6-base-dev-tools libgl-dev
  help2man dpkg-dev clang-format
  python3-distributed
  clang libclang-rt-14-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
