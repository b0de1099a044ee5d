#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) in a clang build folder and runs each for SECONDS
# (default 60), or for a fixed number of executions with `runs:N` (CI's short runs: the ctest
# tests fuzz.<target> of a build with AF_BUILD_FUZZERS=ON call `fuzz.sh runs:N TARGET` with
# AF_FUZZ_NO_BUILD=1 and AF_FUZZ_BUILD set to that build; such runs start from a fresh corpus of
# the seeds alone, so they are the same every time). Each target's corpus is seeded from our
# fixtures (tests/fixtures) and, when present,
# from the real dumps in ../shared/fixtures (copied into the build folder, never into the repo).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: fx_graph inductor_ir output_code
#        asc_graph_py ge_onnx graph_text ascgraph_text; default all). Env: AF_FUZZ_BUILD
#        (build-fuzz), AF_FUZZ_JOBS (ninja -j, 2), AF_FUZZ_MAX_LEN (65536), AF_FUZZ_NO_BUILD (1:
#        use the built targets as they are), AF_FUZZ_SEED (libFuzzer -seed, 0: random).
# A finding stops that target and leaves crash-*/timeout-*/oom-* files in $AF_FUZZ_BUILD/fuzz-out.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
secs="${1:-60}"
shift || true
targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(fx_graph inductor_ir output_code asc_graph_py ge_onnx graph_text ascgraph_text)
build="${AF_FUZZ_BUILD:-$root/build-fuzz}"
shared="${AF_FUZZ_FIXTURES:-$root/../shared/fixtures}"

limit=(-max_total_time="$secs")
if [[ "$secs" == runs:* ]]; then limit=(-runs="${secs#runs:}"); fi

if [[ "${AF_FUZZ_NO_BUILD:-0}" == 1 ]]; then
  :
elif [[ ! -f "$build/build.ninja" ]]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DAF_BUILD_FUZZERS=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer" >/dev/null
fi
if [[ "${AF_FUZZ_NO_BUILD:-0}" != 1 ]]; then
  ninja -C "$build" -j"${AF_FUZZ_JOBS:-2}" "${targets[@]/#/fuzz_}"
fi

# seed_patterns TARGET: file-name patterns of the inputs that target reads.
seed_patterns() {
  case "$1" in
    fx_graph) echo 'fx_graph_*.py *.fx_graph_*.py *post_grad_graph*.txt *.dump.txt' ;;
    inductor_ir) echo 'ir_*fusion*.txt *.ir_*_fusion.txt' ;;
    output_code) echo 'output_code*.py' ;;
    asc_graph_py) echo 'asc_graph*.py' ;;
    ge_onnx) echo 'ge_onnx*.pbtxt *.ge_onnx.pbtxt' ;;
    graph_text) echo '*.AscGraphDef.txt *.GraphDef.txt *.graph.txt ge_proto_*.txt ascgraph_*.txt' ;;
    ascgraph_text) echo 'ascgraph_*.txt' ;;
  esac
}

out="$build/fuzz-out"
mkdir -p "$out"
status=0
for t in "${targets[@]}"; do
  corpus="$build/fuzz-corpus/$t"
  if [[ "$secs" == runs:* ]]; then
    corpus="$build/fuzz-corpus-short/$t"
    rm -rf "$corpus"
  fi
  mkdir -p "$corpus"
  for dir in "$root/tests/fixtures" "$shared"; do
    [[ -d "$dir" ]] || continue
    for pat in $(seed_patterns "$t"); do
      find -L "$dir" -type f -name "$pat" -size -4096k -print0 |
        while IFS= read -r -d '' f; do
          cp -f "$f" "$corpus/seed_$(echo "$f" | md5sum | cut -c1-12)"
        done
    done
  done
  echo "== fuzz_$t: ${secs}, $(ls "$corpus" | wc -l) corpus files"
  if ! (cd "$out" && "$build/bin/fuzz_$t" "$corpus" "${limit[@]}" -seed="${AF_FUZZ_SEED:-0}" \
          -max_len="${AF_FUZZ_MAX_LEN:-65536}" -timeout=10 -rss_limit_mb=2048 \
          -print_final_stats=1 >"$out/$t.log" 2>&1); then
    echo "!! fuzz_$t found a problem: see $out/$t.log"
    status=1
  fi
  grep -E '^stat::number_of_executed_units|^Done [0-9]+ runs' "$out/$t.log" || true
done
exit $status
