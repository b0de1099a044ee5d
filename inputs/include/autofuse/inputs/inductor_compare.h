// Inductor's grouping beside ours (issue 8): for a model folder holding ir_post_fusion.txt,
// Inductor's post-fusion groups mapped onto the FX graph our front end read, our fused kernels
// and the comparison (identical, split, merged, with our reason codes), as the CompileReport's
// framework_groupings.
#pragma once

#include <string>
#include <vector>

#include "autofuse/frontend/fusion.h"
#include "autofuse/model/graph.h"
#include "autofuse/pipeline/options.h"

namespace af::report {
class CompileReport;
class GroupingComparisonReport;
}  // namespace af::report

namespace af::inputs {

// The comparison for `model_dir` against the front end's decisions on `g` (kernel_names: the
// report's names of our kernels, else codegen's). False (and *out untouched) without
// ir_post_fusion.txt.
bool CompareWithInductor(const std::string& model_dir, const model::Graph& g,
                         const frontend::FusionResult& fusion,
                         const std::vector<std::string>& kernel_names,
                         report::GroupingComparisonReport* out);
// The same after reading the folder's FX graph (fx_graph_readable.py, then transformed, then
// runnable) and deciding fusion with `options`' flags; false without one.
bool CompareWithInductor(const std::string& model_dir, const pipeline::Options& options,
                         report::GroupingComparisonReport* out);

// framework_groupings for every model folder of an Inductor input (torch_compile_debug folder at
// any level, or ir_post_fusion.txt) that holds ir_post_fusion.txt and an FX graph. An FX graph
// or IR file we cannot read is a note in its entry.
void AddInductorGroupings(const std::string& input, const pipeline::Options& options,
                          report::CompileReport* out);

}  // namespace af::inputs
