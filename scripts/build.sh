#!/usr/bin/env bash
# Configures and builds autofuse into build/ (executables in build/bin/). Extra arguments go to
# `cmake --build` (e.g. `--target afc`).
set -euo pipefail
cd "$(dirname "$0")/.."
generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build build -j"$(nproc)" "$@"
