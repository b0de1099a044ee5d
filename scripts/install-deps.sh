#!/usr/bin/env bash
# Installs the Debian packages that building and testing autofuse need.
# Idempotent: runs `apt-get update` and `apt-get install` only when something is missing.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libprotobuf-dev protobuf-compiler
  libcli11-dev libfmt-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format clang-tidy
  # the device check of generated kernels (scripts/device_check.py): clang and clang-query
  clang clang-tools
  # scripts/sanitize.sh and scripts/fuzz.sh: the ASan/UBSan/libFuzzer runtimes of clang 14
  libclang-rt-14-dev
  python3 python3-numpy python3-torch python3-onnx
  # afviewer (Qt 6 viewer). libqt6opengl6-dev: Debian 12's Qt6Charts CMake config needs Qt6OpenGL's.
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libqscintilla2-qt6-dev libgraphviz-dev
  libgl-dev xvfb fonts-dejavu-core
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
