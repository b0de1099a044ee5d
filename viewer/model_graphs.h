// The model graphs a run can draw, and the groupings that can be drawn on them as clusters. A
// front-end run (FX graph, case folder, GE model) has one model graph, the report's model_nodes.
// A torch_compile_debug run has one per model folder (forward, backward, inference), each the
// folder's FX graph carried in its GroupingComparisonReport. On each, two groupings: ours (the
// front end's kernels) and Inductor's (its ir_post_fusion groups, when the folder has them), so a
// user sees both fusions of the same graph side by side.
#pragma once

#include <QString>
#include <string>
#include <string_view>
#include <vector>

#include "run_data.h"

namespace af::report {
class ModelNodeReport;
class GroupingComparisonReport;
}  // namespace af::report

namespace af::viewer {

enum class Grouping { kOurs = 0, kInductor = 1 };

struct ModelGraph {
  QString label;  // "model__0_forward_1.0", or the input's file name
  std::vector<const report::ModelNodeReport*> nodes;
  const report::GroupingComparisonReport* comparison = nullptr;  // Inductor's groups, if any
  bool has_ours = true;
  bool has_inductor = false;
};

// One cluster of a grouping: its FX nodes and, when this run compiled it, the kernel index.
struct ModelGroup {
  QString name;
  QString kind;      // kernel, extern (a library call Inductor does not fuse), nop
  int kernel = -1;   // index into the run's kernels, -1: not compiled in this run
  QString fallback;  // why this run could not compile it (Inductor's groups we cannot lower)
  std::vector<std::string_view> nodes;  // names in the run's report (valid while the run is)
};

std::vector<ModelGraph> ModelGraphs(const Run& run);
// The groups of `grouping` on model `model` (ModelGraphs order). For ours on a front-end run the
// group index equals the kernel index.
std::vector<ModelGroup> ModelGroups(const Run& run, int model, Grouping grouping);
// The same for a model of ModelGraphs(run) already at hand.
std::vector<ModelGroup> ModelGroups(const Run& run, const ModelGraph& model, Grouping grouping);

}  // namespace af::viewer
