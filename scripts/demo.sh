#!/usr/bin/env bash
# The main job on the bundled default sample: build afc, compile the sample hint graph
# (schedule -> tiling -> AscendC codegen -> host compile against the CPU AscendC runtime), run the
# kernel on the CPU runtime and verify it against the reference interpreter, and write the
# generated sources and report.json into the folder given as $1 (default out/demo). Then the same
# for a whole PyTorch graph, the seeds' abs + add + relu with casts: the fusion front end decides
# the kernel (fusion.json says why), and the run compares with eager PyTorch's results.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-out/demo}"
sample=samples/hint_graphs/add_bcast_relu.AscGraphDef.txt
bind="s0=37,s1=1031"
scripts/install-deps.sh
scripts/build.sh --target afc
afc=build/bin/afc
"$afc" inspect "$sample"
"$afc" compile "$sample" --bind "$bind" --out "$out" --force --timings
"$afc" tile "$sample" --bind "$bind"
"$afc" run "$sample" --bind "$bind" --seed 1
case_dir=samples/torch/cases/abs_add_relu_casts
"$afc" compile "$case_dir" --out "$out/abs_add_relu_casts" --force
"$afc" run "$case_dir"
"$afc" estimate "$case_dir"
echo "sources and report: $out/ (the PyTorch case: $out/abs_add_relu_casts/, with fusion.json)"
