#!/usr/bin/env bash
# The main job on the bundled default sample: build afc, inspect the sample hint graph, and
# round-trip it through both file forms (AscGraphDef text -> readable text -> AscGraphDef text),
# checking that nothing changed. Outputs go to the folder given as $1 (default out/demo).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-out/demo}"
sample=samples/hint_graphs/add_bcast_relu.AscGraphDef.txt
scripts/install-deps.sh
scripts/build.sh --target afc
mkdir -p "$out"
afc=build/bin/afc
"$afc" inspect "$sample"
"$afc" convert "$sample" --to text -o "$out/sample.graph.txt" --force
"$afc" convert "$out/sample.graph.txt" --to ascgraph -o "$out/sample.AscGraphDef.txt" --force
"$afc" convert "$out/sample.AscGraphDef.txt" --to text -o "$out/sample.again.graph.txt" --force
if cmp -s "$out/sample.graph.txt" "$out/sample.again.graph.txt"; then
  echo "round trip: identical ($out/sample.graph.txt, $out/sample.AscGraphDef.txt)"
else
  echo "round trip: MISMATCH" >&2
  diff "$out/sample.graph.txt" "$out/sample.again.graph.txt" >&2 || true
  exit 1
fi
