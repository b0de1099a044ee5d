#!/usr/bin/env bash
# No function over 150 lines in libautofuse/, importers/, inputs/ and tools/: clang-tidy's
# readability-function-size (LineThreshold 150, from .clang-tidy) on every source file, with the
# build's compile_commands.json. Exit 0 when every file passes; the offenders are listed otherwise.
#   scripts/function_size.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
if [ ! -f "$build/compile_commands.json" ]; then
  echo "function_size: $build/compile_commands.json is missing (configure the build first)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files 'libautofuse/src/*.cc' 'importers/*.cc' 'inputs/*.cc' 'tools/*.cc')
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet \
    --checks='-*,readability-function-size' --warnings-as-errors='readability-function-size' \
    >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  grep -E "warning:|error:" "$log" | grep -v "^[0-9]* warnings" || cat "$log"
  echo "function_size: FAIL (functions over 150 lines above)"
  exit 1
fi
echo "function_size: ${#files[@]} files, no function over 150 lines"
