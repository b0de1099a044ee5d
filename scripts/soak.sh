#!/usr/bin/env bash
# Differential soak (tests/soak/soak.py): N random hint graphs (default 100), each compiled and run
# on the CPU runtime with its checks on against the reference interpreter, with several bindings.
# Findings are shrunk and written to $AF_SOAK_OUT (build/soak-findings) as reproducer graphs; copy
# a fixed one into tests/soak/regressions/ with an `# expect:` line (docs/reliability.md).
#   scripts/soak.sh [N] [START_SEED]     Env: AF_SOAK_JOBS (2), AF_SOAK_SHAPES (3 bindings/graph)
# The kernel cache (build/soak-cache) is kept between soaks: a graph seen before costs no compile.
# Kernels compile at -O0 (AF_KERNEL_CXXFLAGS, default here -O0) against a precompiled
# kernel_operator.h: about a third of the CPU of -O2 per graph; every runtime check stays on.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-100}"
start="${2:-1}"
scripts/build.sh --target afc >/dev/null
export AF_CACHE_DIR="${AF_CACHE_DIR:-$PWD/build/soak-cache}"
export AF_KERNEL_CXXFLAGS="${AF_KERNEL_CXXFLAGS:--O0}"
export AF_KERNEL_PCH="${AF_KERNEL_PCH:-1}"
python=/usr/bin/python3
[[ -x "$python" ]] || python=python3
exec "$python" tests/soak/soak.py --afc build/bin/afc --count "$n" --start "$start" \
  --jobs "${AF_SOAK_JOBS:-2}" --shapes "${AF_SOAK_SHAPES:-3}" \
  --out "${AF_SOAK_OUT:-build/soak-findings}"
