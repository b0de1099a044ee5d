#!/usr/bin/env bash
# The whole test suite (what CI runs, .ci/run): installs dependencies, configures, builds, runs
# every test with CTest, then the sanitizer and short fuzz stage (scripts/sanitize.sh: an
# ASan+UBSan clang build, build-asan, of the library, afc, chosen unit/golden tests, the viewer
# tests and the fuzz targets; a planted heap bug that must be reported). AF_SANITIZE=0 skips the
# stage (and then ctest runs cli.hardening itself, which the stage otherwise runs against the
# sanitized afc). Prints the seconds of each stage: the tests of both together stay within the
# 600 s budget on the 2-core machine (docs/reliability.md has the figures).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
# Generated kernels are built at -O0 in the suite (docs/toolchain.md): the CPU runtime's checks
# are code in its headers, so the optimiser adds nothing they check, and a kernel compile costs
# about a third of -O2's (the suite builds ~300 kernels on an empty cache). afc itself keeps -O2;
# the -O2 path stays covered by the tests that set their own flags (toolchain, dlopen) and the
# exported reproducers' own CMake builds. Set AF_KERNEL_CXXFLAGS to choose otherwise.
export AF_KERNEL_CXXFLAGS="${AF_KERNEL_CXXFLAGS:--O0}"
# Every test's kernels go into the build tree's cache, never the user's ~/.cache/autofuse: the
# suite is hermetic (its time does not depend on what an earlier run left there) and tests that
# build the same kernel (an oracle case and its afc_case, an e2e graph and the pipeline tests)
# build it once. With ~300 kernels in one folder, the precompiled kernel_operator.h and the
# prebuilt runtime object pay for themselves (AF_KERNEL_PCH, docs/toolchain.md: a kernel compile
# at -O0 takes about half the CPU, three kernels' worth to build the two). Tests that need their own cache (cli.hardening, install.consumer) set it.
export AF_CACHE_DIR="$PWD/build/kernel-cache"
export AF_KERNEL_PCH="${AF_KERNEL_PCH:-1}"
sanitize="${AF_SANITIZE:-1}"
exclude=()
# The stage runs the CLI hardening script against the sanitized afc: not twice.
if [ "$sanitize" = 1 ]; then exclude=(-E '^cli\.hardening$'); fi
t0=$(date +%s)
status=0
ctest --test-dir build --output-on-failure -j"$(nproc)" "${exclude[@]}" || status=1
echo "test: ctest $(( $(date +%s) - t0 )) s"
if [ "$sanitize" = 1 ]; then
  t1=$(date +%s)
  scripts/sanitize.sh || status=1
  echo "test: sanitizer stage $(( $(date +%s) - t1 )) s (build and tests; the tests' seconds above)"
fi
exit $status
