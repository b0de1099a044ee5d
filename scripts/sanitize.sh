#!/usr/bin/env bash
# CI's sanitizer and fuzz stage (scripts/test.sh runs it after the main suite): one clang build
# folder, build-asan, with AddressSanitizer + UndefinedBehaviorSanitizer on every target
# (-DAUTOFUSE_SANITIZE=ON) and libFuzzer coverage on the libraries (-DAF_BUILD_FUZZERS=ON), built
# only for the targets below (ccache keeps rebuilds cheap). It then runs:
#   - every unit test binary that builds no kernel (data, ir, sym, att, schedule, interp,
#     frontend, model, the CPU runtime's own tests, the importers' tests on our fixtures and the
#     real dumps, graph reports, super kernels) and the golden tests (afc opt over tests/golden,
#     the whole pipeline up to codegen), each as one gtest binary; the tests that compile and run
#     generated kernels (e2e, pipeline, oracle, toolchain, afc's CLI tests) stay in the main
#     ctest run, where a kernel is compiled by the host compiler anyway, uninstrumented;
#   - the viewer tests (offscreen Qt platform) and the afc CLI hardening test;
#   - ctest's sanitize label: the planted heap overflow, which must be caught;
#   - ctest's fuzz label: every fuzz target for AF_FUZZ_CI_RUNS executions from the fixtures.
# Any sanitizer report fails the test that hit it. Env: AF_ASAN_BUILD (build-asan), AF_ASAN_JOBS
# (ninja -j, 2). Prints the wall time of the build and of the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${AF_ASAN_BUILD:-build-asan}"
jobs="${AF_ASAN_JOBS:-2}"
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
if [[ ! -f "$build/build.ninja" ]]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DAUTOFUSE_SANITIZE=ON -DAF_BUILD_FUZZERS=ON -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link" \
    >/dev/null
fi
t0=$(date +%s)
# Longest first, so that the two-at-a-time runs below end together.
tests=(inductor_import_test inductor_hint_test fx_import_test viewer_test interp_test golden_test
  runtime_test frontend_test att_test sym_test data_test ir_test dfx_import_test
  runtime_cube_test superkernel_test graph_report_test schedule_test model_test)
ninja -C "$build" -j"$jobs" afc afviewer "${tests[@]}" planted_heap_bug_test af_fuzzers
t1=$(date +%s)
echo "sanitize: build $((t1 - t0)) s"

# A finding aborts (UBSan: -fno-sanitize-recover); leaks are findings too.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Graphviz's own leaks in its dot layout (tests/sanitize/lsan.supp says which and why).
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitize/lsan.supp"
export QT_QPA_PLATFORM=offscreen
export AF_CACHE_DIR="$(cd "$build" && pwd)/kernel-cache"  # AF_ASAN_BUILD may be absolute
status=0
# run_one NAME CMD...: CMD with its output in $build/NAME.log; prints the verdict and the seconds.
run_one() {
  local name=$1 s
  shift
  s=$(date +%s)
  if "$@" >"$build/$name.log" 2>&1; then
    echo "sanitize: $name passed ($(( $(date +%s) - s )) s)"
  else
    echo "sanitize: $name FAILED ($(( $(date +%s) - s )) s); the end of $build/$name.log:"
    tail -40 "$build/$name.log"
    return 1
  fi
}
# $jobs at a time (the gtest binaries are single-threaded).
running=0
for t in "${tests[@]::4}" hardening "${tests[@]:4}"; do
  if [[ $t == hardening ]]; then
    run_one cli_hardening tests/cli/hardening_test.sh "$build/bin/afc" \
      samples/hint_graphs/add_bcast_relu.AscGraphDef.txt &
  else
    run_one "$t" "$build/tests/$t" --gtest_brief=1 &
  fi
  running=$((running + 1))
  if (( running >= jobs )); then
    wait -n || status=1
    running=$((running - 1))
  fi
done
while (( running > 0 )); do
  wait -n || status=1
  running=$((running - 1))
done
ctest --test-dir "$build" -L 'sanitize|fuzz' --output-on-failure -j"$jobs" || status=1
echo "sanitize: tests $(( $(date +%s) - t1 )) s"
exit $status
