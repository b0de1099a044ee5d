#!/usr/bin/env bash
# The whole test suite: installs dependencies, configures, builds, runs every test with CTest,
# then the sanitizer and short fuzz stage (scripts/sanitize.sh: an ASan+UBSan clang build of the
# library, afc, chosen tests and the fuzz targets; AF_SKIP_SANITIZE=1 leaves it out).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
if [ "${AF_SKIP_SANITIZE:-0}" != 1 ]; then scripts/sanitize.sh; fi
