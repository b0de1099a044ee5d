// The pipeline's stages one at a time, by name, on text in and text out: what the golden tests'
// `# RUN: <stage> [args]` lines apply and what `afc opt` runs by hand, so every golden test can be
// re-run from the command line (`afc opt tests/golden/schedule/x.test`).
//
// Hint-graph stages (readable AscGraph text in):
//   dump                      parse and print back
//   tile_split AXIS           TileSplit of the named axis
//   block_split AXIS          BlockSplit of the named axis
//   merge AXIS AXIS...        MergeAxes; a refusal prints "merge refused: <why>"
//   reorder AXIS AXIS...      ReorderAxes
//   proto                     write AscGraphDef text, read it back, dump
//   validate                  print the diagnostics ("ok" when there are none)
//   normalize                 the schedule's normalisation (casts, broadcasts, merged axes)
//   passes                    the graph after each normalisation pass, each after a
//                             "// ---- normalize.<pass>" line (schedule::NormalizePassNames)
//   schedule                  the whole schedule: decisions, buffers, axis groups, templates,
//                             tiling cases and impl graphs; a refusal prints
//                             "schedule error CODE: message"
//   tile --bind s0=N,...      the tiling decision for bound sizes (pipeline::DumpTiling); also
//        [--flags "..."]      takes the solver flags; "no tiling: why" when no case fits
//   codegen                   every generated source, each after a "// ---- <file>" line
// Several stages apply in order; the graph is printed at the end unless a stage printed a
// result of its own (validate, passes, schedule, tile, codegen).
//
// Model-graph stages (aten FX graph in):
//   lower                     all op nodes lowered as one group: the hint graph's readable text,
//                             or "lower refused [CODE]: message"
//   check                     CheckOp per node: "<node>: ok" or "<node>: <CODE> message"
//   fuse [FLAGS]              the fusion decider: "kernel k: nodes...", "fallback <node> [CODE]
//                             (stage)", and one "decision" line per record
//   superkernel [FLAGS]       the front end's kernels as super kernels (pipeline/superkernel.h):
//                             "superkernel [CODE]: message" per decision, then every generated
//                             source after a "// ---- <file>" line
#pragma once

#include <string>
#include <vector>

#include "autofuse/ir/graph.h"
#include "autofuse/model/graph.h"

namespace af::pipeline {

// One stage and its arguments, split at spaces ("tile", "--bind", "s0=4").
using StageRun = std::vector<std::string>;

// The `# RUN:` lines of a golden file, in order.
std::vector<StageRun> RunLines(const std::string& text);

// Applies the hint-graph stages in order; throws std::invalid_argument on an unknown stage or a
// malformed argument, af::InputError on a bad --bind or --flags.
std::string RunHintStages(ir::Graph g, const std::vector<StageRun>& runs);
// One model-graph stage.
std::string RunModelStage(const model::Graph& g, const StageRun& run);

bool IsHintStage(const std::string& name);
bool IsModelStage(const std::string& name);

}  // namespace af::pipeline
